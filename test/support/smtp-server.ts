/**
 * A real SMTP server for tests (the `smtp-server` package, plain SMTP on a free port, any or no
 * login accepted): every mail it receives is parsed with `mailparser` and kept, so a test reads
 * what a user would find in their inbox.
 *
 *   const smtp = await startSmtpServer();
 *   ... SMTP_URL: smtp.url ...
 *   const mail = await smtp.waitForMail('ada@example.com', { subject: RESET_SUBJECT });
 *   await smtp.stop();
 */
import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export type ReceivedMail = { to: string[]; from: string; subject: string; text: string; parsed: ParsedMail };

/** The subjects of Tally's mails: a reset link (API.md §2.4), a verification link (§2.5). */
export const RESET_SUBJECT = 'Reset your Tally password';
export const VERIFY_SUBJECT = 'Confirm your email address for Tally';

/** Which mails a wait or a look takes: only those with this subject, if given; a number is `timeoutMs`. */
export type MailFilter = { subject?: string; timeoutMs?: number } | number;

export type TestSmtpServer = {
  /** `smtp://user:secret@127.0.0.1:<port>`, for `SMTP_URL`. */
  url: string;
  mails: ReceivedMail[];
  /** The first mail to `to` (with `subject`, if given) not yet taken by an earlier wait; rejects after `timeoutMs`. */
  waitForMail(to: string, filter?: MailFilter): Promise<ReceivedMail>;
  /** The mails to `to` (with `subject`, if given) received so far. */
  mailsTo(to: string, subject?: string): ReceivedMail[];
  stop(): Promise<void>;
};

const addressesOf = (value: ParsedMail['to']): string[] =>
  (Array.isArray(value) ? value : value ? [value] : []).flatMap((group) =>
    group.value.map((address) => (address.address ?? '').toLowerCase()),
  );

export async function startSmtpServer(): Promise<TestSmtpServer> {
  const mails: ReceivedMail[] = [];
  const taken = new Set<ReceivedMail>();
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    allowInsecureAuth: true,
    logger: false,
    onAuth(_auth, _session, callback) {
      callback(null, { user: 'test' });
    },
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (parsed) => {
          mails.push({
            to: addressesOf(parsed.to),
            from: parsed.from?.text ?? '',
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            parsed,
          });
          for (const wake of waiters) wake();
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = (server as unknown as { server: { address(): AddressInfo } }).server.address();
  const mailsTo = (to: string, subject?: string) =>
    mails.filter(
      (mail) => mail.to.includes(to.toLowerCase()) && (subject === undefined || mail.subject === subject),
    );

  return {
    url: `smtp://user:secret@127.0.0.1:${port}`,
    mails,
    mailsTo,
    waitForMail(to, filter = {}) {
      const { subject, timeoutMs = 10_000 } = typeof filter === 'number' ? { timeoutMs: filter } : filter;
      return new Promise((resolve, reject) => {
        const check = () => {
          const mail = mailsTo(to, subject).find((m) => !taken.has(m));
          if (!mail) return false;
          taken.add(mail);
          clearTimeout(timer);
          waiters.delete(wake);
          resolve(mail);
          return true;
        };
        const wake = () => {
          check();
        };
        const timer = setTimeout(() => {
          waiters.delete(wake);
          reject(new Error(`no mail to ${to} within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(wake);
        check();
      });
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The token of the reset link in a mail (`…/#reset=<token>`). */
export function resetTokenOf(mail: ReceivedMail): string {
  const match = /#reset=([A-Za-z0-9_-]+)/.exec(mail.text);
  if (!match?.[1]) throw new Error(`no reset link in: ${mail.text}`);
  return match[1];
}

/** The reset link in a mail. */
export function resetLinkOf(mail: ReceivedMail): string {
  const match = /(https?:\/\/\S+#reset=[A-Za-z0-9_-]+)/.exec(mail.text);
  if (!match?.[1]) throw new Error(`no reset link in: ${mail.text}`);
  return match[1];
}

/** The token of the verification link in a mail (`…/#verify-email=<token>`). */
export function verifyTokenOf(mail: ReceivedMail): string {
  const match = /#verify-email=([A-Za-z0-9_-]+)/.exec(mail.text);
  if (!match?.[1]) throw new Error(`no verification link in: ${mail.text}`);
  return match[1];
}
