// Mail leaves through the outbox: a `mail.send` job carries the message rendered when it was
// queued (in the transaction of the change that caused it), so a crash never loses or changes it.
// The job hands it to the process's mailer: SMTP when SMTP_URL is set, otherwise the job row is
// the outbox (operations.md §2) and `paraph mail list` shows it. The one exception is a signer's
// e-mail code, whose mail is rendered when sent so the code is never stored (issue #20;
// signing-page/email-code-job.ts, which sends through deliverMail below).
import type { FastifyBaseLogger } from 'fastify'
import { type JobKind, PermanentJobError } from '../jobs/worker.ts'
import type { Metrics } from '../metrics/metrics.ts'
import { type Mailer, MailRejectedError } from './mailer.ts'

export const MAIL_JOB = 'mail.send'

/**
 * Seconds after each failed attempt before the next: a restarting mail server or a greylisting
 * 4xx clears within the first minutes, a longer outage within hours; the last attempt comes about
 * 32 hours after the first. A permanent 5xx rejection is never retried (mailJob).
 */
export const MAIL_RETRY_SCHEDULE = [10, 60, 300, 1800, 7200, 21_600, 86_400]

/** Attempts of a mail: the first and one per step of the retry schedule. */
export const MAIL_MAX_ATTEMPTS = MAIL_RETRY_SCHEDULE.length + 1

export interface MailMessage {
  to: string
  bcc: string | null
  reply_to: string | null
  subject: string
  text: string
  /** The HTML part; a message without one is sent as plain text. */
  html?: string
  /** The recipient's name for the To header, when known. */
  to_name?: string | null
  /** What the mail is (`signing_request`, `completed`, …), for the outbox listing and the logs. */
  kind?: string
  /** What the mail is about, for the outbox listing and the audit trail (null: a notice to an account owner). */
  submission_id: string | null
  submitter_id: string | null
  /** The webhook endpoint a notice to the account owner is about. */
  webhook_endpoint_id?: string
}

/**
 * The Message-ID of the job's mail, the same on every attempt: when a worker dies between the
 * server's acceptance and the job's completion, the one duplicate the next attempt sends carries
 * the same id, so mail clients and anyone reading the logs can tell it apart.
 */
export function mailMessageId(jobId: string, mailFrom: string): string {
  const domain = /@([^\s<>@]+)>?\s*$/.exec(mailFrom)?.[1] ?? 'paraph.invalid'
  return `<${jobId}@${domain}>`
}

/**
 * Hands one message to the mailer. A permanent refusal (5xx) is logged once and ends the job for
 * good (PermanentJobError); any other failure is thrown for the job's retry schedule.
 */
export async function deliverMail(
  { mailer, logger, metrics }: { mailer: Mailer; logger: FastifyBaseLogger; metrics: Metrics },
  message: MailMessage,
  messageId: string,
  jobId: string,
): Promise<void> {
  try {
    await mailer.send(message, messageId)
    metrics.mail(mailer.kind === 'smtp' ? 'sent' : 'outboxed')
  } catch (error) {
    // Every failed attempt, whether retried or refused for good (the log line tells them apart).
    metrics.mail('failed')
    if (!(error instanceof MailRejectedError)) throw error
    logger.error(
      {
        job_id: jobId,
        message_id: messageId,
        to: message.to,
        kind: message.kind,
        submission_id: message.submission_id,
        submitter_id: message.submitter_id,
        smtp_response: error.response,
      },
      'mail rejected permanently by the SMTP server; it will not be retried',
    )
    throw new PermanentJobError(error.message)
  }
}

export function mailJob({
  mailer,
  logger,
  metrics,
  mailFrom,
}: {
  mailer: Mailer
  logger: FastifyBaseLogger
  metrics: Metrics
  mailFrom: string
}): JobKind {
  return {
    retrySchedule: MAIL_RETRY_SCHEDULE,
    handle: (payload, job) =>
      deliverMail(
        { mailer, logger, metrics },
        payload as MailMessage,
        mailMessageId(job.id, mailFrom),
        job.id,
      ),
  }
}
