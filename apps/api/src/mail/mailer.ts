import nodemailer from 'nodemailer';
import type { Logger } from 'pino';
import { Counter, type Registry } from 'prom-client';

/** One mail to one recipient: plain text, and an HTML alternative where the sender has one. */
export type Mail = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** More header fields (`List-Unsubscribe` of a notification, API.md §13.3). */
  headers?: Record<string, string>;
  /** The `Message-ID` (`<id@domain>`); absent: the transport makes one. */
  messageId?: string;
};

/** Where the service's mails go: an SMTP server (`SMTP_URL`) or, without one, the log. */
export type Mailer = {
  /** Resolves once the mail was handed over (accepted by the SMTP server, or logged). */
  send(mail: Mail): Promise<void>;
  /** Closes the transport (its pooled connections); sends after this fail. */
  close(): Promise<void>;
};

/** The `From` when `MAIL_FROM` is not set. */
export const DEFAULT_MAIL_FROM = 'Tally <no-reply@tally.invalid>';

/**
 * Sends through the SMTP server of `url` (`smtp://user:pass@host:587`, `smtps://…:465`; nodemailer
 * reads the URL, STARTTLS is used where the server offers it), on a small pool of connections.
 */
export function createSmtpMailer(options: { url: string; from?: string }): Mailer {
  const url = new URL(options.url);
  // A pooled transport keeps connections between mails; `pool=true` in the URL is nodemailer's spelling.
  if (!url.searchParams.has('pool')) url.searchParams.set('pool', 'true');
  const transport = nodemailer.createTransport(url.toString(), {
    from: options.from ?? DEFAULT_MAIL_FROM,
  });
  let closed = false;
  return {
    async send(mail) {
      if (closed) throw new Error('the mailer is closed');
      await transport.sendMail({
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        headers: mail.headers,
        messageId: mail.messageId,
      });
    },
    async close() {
      closed = true;
      transport.close();
    },
  };
}

/**
 * The embedded default, without `SMTP_URL`: each mail is one info line in the log (recipient,
 * subject and text, so a reset link can be followed from there). Not for production (docs/OPERATIONS.md).
 */
export function createLogMailer(options: { logger: Logger; from?: string }): Mailer {
  const from = options.from ?? DEFAULT_MAIL_FROM;
  return {
    async send(mail) {
      options.logger.info(
        { mail: { from, to: mail.to, subject: mail.subject, text: mail.text } },
        'mail (not sent: no SMTP_URL)',
      );
    },
    async close() {},
  };
}

export const MAILS_METRIC = 'mails_total';

/** Counts every send in `mails_total{outcome="sent"|"failed"}` (registered once per registry). */
export function withMailMetrics(mailer: Mailer, registry: Registry): Mailer {
  const counter =
    (registry.getSingleMetric(MAILS_METRIC) as Counter<'outcome'> | undefined) ??
    new Counter({
      name: MAILS_METRIC,
      help: 'Mails handed to the SMTP server (or the log), by outcome: sent or failed',
      labelNames: ['outcome'],
      registers: [registry],
    });
  return {
    async send(mail) {
      try {
        await mailer.send(mail);
        counter.inc({ outcome: 'sent' });
      } catch (error) {
        counter.inc({ outcome: 'failed' });
        throw error;
      }
    },
    close: () => mailer.close(),
  };
}
