// Sends account e-mails. With SMTP_URL unset there is nowhere to send them, so the link is
// written to the server log instead (the embedded default: a self-hoster can still confirm).
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
      async send({ to, subject, text }) {
        logger.info(`e-mail not sent (SMTP_URL unset) to ${to}: ${subject}\n${text}`);
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
