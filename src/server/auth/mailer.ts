// Sends account e-mails. With SMTP_URL unset there is nowhere to send them: accounts are then
// confirmed at sign-up (auth.ts), and only the recipient and subject of a message are logged,
// never its text (a link in it signs its holder in).
import nodemailer from 'nodemailer';
import type { Logger } from '../lib/logger';

export interface Mailer {
  /** True when messages really leave the machine (SMTP configured). */
  readonly delivers: boolean;
  send(message: { to: string; subject: string; text: string }): Promise<void>;
}

export function createMailer(smtpUrl: string | undefined, from: string, logger: Logger): Mailer {
  if (!smtpUrl) {
    return {
      delivers: false,
      async send({ to, subject }) {
        logger.info(`e-mail not sent (SMTP_URL unset) to ${to}: ${subject}`);
      },
    };
  }
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    delivers: true,
    async send({ to, subject, text }) {
      await transport.sendMail({ from, to, subject, text });
    },
  };
}
