// What sends a mail: one per process, made by createDeps from the configuration
// (docs/operations.md#configuration). With SMTP_URL, a pooled SMTP transport (smtp-mailer.ts);
// without it, the outbox (outbox-mailer.ts): the message stays in its job row.
import type { MailMessage } from './mail-job.ts'

export interface Mailer {
  /** `smtp` hands mail to a server; `outbox` only keeps it (the job row) and logs it. */
  readonly kind: 'smtp' | 'outbox'
  /**
   * Delivers, or throws: MailRejectedError when the server refused the message for good (5xx),
   * any other error for a failure a later attempt may get past (refused connection, timeout, 4xx).
   */
  send(message: MailMessage, messageId: string): Promise<void>
  /**
   * Whether mail may go to an address whose local part is not ASCII (docs/api.md#e-mail-addresses).
   * The SMTP mailer asks its server once (EHLO) and asks again while it could not.
   */
  utf8Delivery(): Promise<Utf8Delivery>
  close(): Promise<void>
}

/**
 * `announced` / `not_announced`: the SMTP server's EHLO lists SMTPUTF8 (RFC 6531) or not;
 * `unreachable`: it could not be asked; `outbox`: no SMTP_URL — the mail is kept for a later
 * server, and such an address is accepted (that server must then announce SMTPUTF8).
 */
export type Utf8Delivery = 'announced' | 'not_announced' | 'unreachable' | 'outbox'

/** A permanent refusal (an SMTP 5xx reply): sending the same message again would be refused again. */
export class MailRejectedError extends Error {
  override name = 'MailRejectedError'
  /** The server's reply, e.g. `550 5.1.1 No such user`. */
  readonly response: string | undefined
  constructor(message: string, response: string | undefined) {
    super(message)
    this.response = response
  }
}
