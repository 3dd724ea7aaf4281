// Mail leaves through the outbox: a `mail.send` job carries the message rendered when it was
// queued (in the transaction of the change that caused it), so a crash never loses or changes it.
// Without SMTP_URL the job row is the outbox (operations.md §2): the message is logged and kept,
// and `paraph mail list` shows it.
import type { FastifyBaseLogger } from 'fastify'
import type { Config } from '../config.ts'
import type { JobKind } from '../jobs/worker.ts'

export const MAIL_JOB = 'mail.send'

export interface MailMessage {
  to: string
  bcc: string | null
  reply_to: string | null
  subject: string
  text: string
  /** What the mail is about, for the outbox listing and the audit trail. */
  submission_id: string
  submitter_id: string
}

export function mailJob(config: Readonly<Config>, logger: FastifyBaseLogger): JobKind {
  return {
    retrySchedule: [30, 300, 1800, 7200],
    handle: async (payload) => {
      const message = payload as MailMessage
      // SMTP delivery (SMTP_URL) arrives with the mail issue; until then every message stays in the outbox.
      logger.info(
        {
          to: message.to,
          subject: message.subject,
          submission_id: message.submission_id,
          smtp: Boolean(config.smtpUrl),
        },
        'mail kept in the outbox',
      )
    },
  }
}
