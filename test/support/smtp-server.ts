/**
 * A real SMTP server for tests (the `smtp-server` package, plain SMTP on a free port, any or no
 * login accepted): every mail it receives is parsed with `mailparser` and kept, so a test reads
 * what a user would find in their inbox.
 *
 *   const smtp = await startSmtpServer();
 *   ... SMTP_URL: smtp.url ...
 *   const mail = await smtp.waitForMail('ada@example.com');
 *   await smtp.stop();
 */
import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export type ReceivedMail = { to: string[]; from: string; subject: string; text: string; parsed: ParsedMail };

export type TestSmtpServer = {
  /** `smtp://user:secret@127.0.0.1:<port>`, for `SMTP_URL`. */
  url: string;
  mails: ReceivedMail[];
  /** The first mail to `to` not yet taken by an earlier wait; rejects after `timeoutMs`. */
  waitForMail(to: string, timeoutMs?: number): Promise<ReceivedMail>;
  /** The mails to `to` received so far. */
  mailsTo(to: string): ReceivedMail[];
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
  const mailsTo = (to: string) => mails.filter((mail) => mail.to.includes(to.toLowerCase()));

  return {
    url: `smtp://user:secret@127.0.0.1:${port}`,
    mails,
    mailsTo,
    waitForMail(to, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const mail = mailsTo(to).find((m) => !taken.has(m));
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
