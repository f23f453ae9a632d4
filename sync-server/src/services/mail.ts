/**
 * Outgoing mail. With SMTP_URL set, nodemailer sends through it; without it (the embedded
 * default) the message, with any reset or verification link in it, is printed to the server log
 * only, where the operator can pass it on. A link is never answered over HTTP.
 */
import nodemailer from 'nodemailer';
import type { Config } from '../config';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  /** True when messages really leave the server. */
  readonly delivers: boolean;
  send(message: MailMessage): Promise<void>;
}

export function createMailer(config: Config): Mailer {
  if (!config.smtpUrl) {
    return {
      delivers: false,
      async send(m) {
        console.log(`[mail not configured] to=${m.to} subject="${m.subject}"\n${m.text}`);
      },
    };
  }
  const transport = nodemailer.createTransport(config.smtpUrl);
  return {
    delivers: true,
    async send(m) {
      await transport.sendMail({
        from: config.mailFrom,
        to: m.to,
        subject: m.subject,
        text: m.text,
      });
    },
  };
}
