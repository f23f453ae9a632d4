/**
 * A mail sink for tests: a real SMTP server (smtp-server) on loopback that the sync server sends
 * to (SMTP_URL), each message parsed with mailparser, and the helpers to find a person's mails
 * and the token in their link.
 */
import type { AddressInfo } from 'node:net';
import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export const RESET_SUBJECT = 'Reset your PingMe password';
export const VERIFY_SUBJECT = 'Verify your PingMe e-mail';

export interface MailSink {
  port: number;
  messages: ParsedMail[];
  /** The messages with that subject sent to that address. */
  mailsTo(address: string, subject: string): ParsedMail[];
  /** Polls until `count` messages with that subject reached the address (bounded). */
  waitForMail(
    address: string,
    subject: string,
    count?: number,
    timeoutMs?: number,
  ): Promise<ParsedMail[]>;
  close(): Promise<void>;
}

export function recipients(m: ParsedMail): string[] {
  const to = m.to as AddressObject | AddressObject[] | undefined;
  const list = Array.isArray(to) ? to : to ? [to] : [];
  return list.flatMap((a) => a.value.map((v) => (v.address ?? '').toLowerCase()));
}

/** The token of the first link to `path` in the message's text. */
export function tokenIn(m: ParsedMail, path: '/reset-password' | '/verify-email'): string {
  const match = new RegExp(`${path}\\?token=([\\w-]+)`).exec(m.text ?? '');
  if (!match) throw new Error(`no ${path} link in:\n${m.text}`);
  return match[1]!;
}

export async function startMailSink(): Promise<MailSink> {
  const messages: ParsedMail[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      // The message is stored before the server answers 250, so once the sender's
      // sendMail resolves the message is already in the list.
      simpleParser(stream).then(
        (parsed) => {
          messages.push(parsed);
          callback();
        },
        (err: Error) => callback(err),
      );
    },
  });
  smtp.on('error', (err) => console.error('smtp sink error', err));
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
  const port = (smtp.server.address() as AddressInfo).port;
  const mailsTo = (address: string, subject: string) =>
    messages.filter((m) => m.subject === subject && recipients(m).includes(address.toLowerCase()));
  return {
    port,
    messages,
    mailsTo,
    async waitForMail(address, subject, count = 1, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = mailsTo(address, subject);
        if (found.length >= count) return found;
        if (Date.now() > deadline) {
          throw new Error(
            `expected ${count} "${subject}" mail(s) to ${address} within ${timeoutMs} ms, got ${found.length}`,
          );
        }
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
}
