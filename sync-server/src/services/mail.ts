/**
 * Outgoing mail. With SMTP_URL set, nodemailer sends through it; without it (the embedded
 * default) the message, with any reset or verification link in it, is printed to the server log
 * only, where the operator can pass it on. A link is never answered over HTTP.
 *
 * That log line is JSON like every other (logger.ts), a warning so any level short of error shows it:
 * `{"level":"warn",…,"to":…,"subject":…,"links":["https://…/reset-password?token=…"],"text":…,
 * "msg":"mail not configured: …"}`; `jq -r 'select(.links) | .to, .links[]'` lists them.
 */
import nodemailer from 'nodemailer';
import type { Config } from '../config';
import { logger } from '../logger';

export const UNSENT_MAIL_MESSAGE = 'mail not configured: pass this message on to its recipient';

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
        const links = m.text.match(/https?:\/\/\S+/g) ?? [];
        // warn, not info: the operator has to act on it, and LOG_LEVEL=warn must still show it.
        logger.warn({ to: m.to, subject: m.subject, links, text: m.text }, UNSENT_MAIL_MESSAGE);
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
