import nodemailer from "nodemailer";
import type { SmtpConfig } from "../platform/config";
import { localizedMessage, type Locale } from "../platform/messages";

/** One invitation e-mail: who invites whom to which team, in the reader's language, with the link that opens Cairn. */
export interface InvitationLetter {
  to: string;
  language: Locale;
  inviter: string;
  team: string;
  link: string;
}

export interface InvitationMailer {
  send(letter: InvitationLetter): Promise<void>;
}

/**
 * Invitations over the configured SMTP server (SMTP is configured by the operator, never by a user, so it does not go
 * through the outbound guard). Bounded waits: an unreachable server fails the mail in seconds, not the invitation.
 */
export function smtpInvitationMailer(smtp: SmtpConfig): InvitationMailer {
  const timeouts = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };
  const auth = smtp.user ? { user: smtp.user, pass: smtp.password ?? "" } : undefined;
  const transport = nodemailer.createTransport(smtp.url ? { url: smtp.url, ...timeouts } : { host: smtp.host, port: smtp.port, secure: smtp.secure, auth, ...timeouts });
  return {
    async send({ to, language, inviter, team, link }) {
      const params = { inviter, team, link };
      await transport.sendMail({
        from: smtp.from,
        to,
        subject: localizedMessage(language, "team.mail.subject", params),
        text: localizedMessage(language, "team.mail.body", params),
      });
    },
  };
}
