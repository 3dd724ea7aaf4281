// Without SMTP_URL (docs/operations.md#configuration): mail is kept, never lost. The job row holds
// the message; `paraph mail list` shows it; each one is logged when its job runs.
import type { FastifyBaseLogger } from 'fastify'
import type { MailMessage } from './mail-job.ts'
import type { Mailer, Utf8Delivery } from './mailer.ts'

export class OutboxMailer implements Mailer {
  readonly kind = 'outbox'
  private readonly logger: FastifyBaseLogger
  constructor(logger: FastifyBaseLogger) {
    this.logger = logger
  }

  async send(message: MailMessage, messageId: string): Promise<void> {
    this.logger.info(
      {
        message_id: messageId,
        to: message.to,
        subject: message.subject,
        kind: message.kind,
        submission_id: message.submission_id,
      },
      'mail kept in the outbox (no SMTP_URL)',
    )
  }

  /** Kept mail waits for a server that is not known yet: accepted (docs/api.md#e-mail-addresses). */
  async utf8Delivery(): Promise<Utf8Delivery> {
    return 'outbox'
  }

  async close(): Promise<void> {}
}
