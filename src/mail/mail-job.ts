// Mail leaves through the outbox: a `mail.send` job carries the message rendered when it was
// queued (in the transaction of the change that caused it), so a crash never loses or changes it.
// The job hands it to the process's mailer: SMTP when SMTP_URL is set, otherwise the job row is
// the outbox (docs/operations.md#configuration) and `paraph mail list` shows it. The one exception
// is a signer's e-mail code, whose mail is rendered when sent so the code is never stored
// (signing-page/email-code-job.ts, which sends through deliverMail below).
import type { FastifyBaseLogger } from 'fastify'
import { type Static, Type } from 'typebox'
import type { Tx } from '../db/tables.ts'
import { defineJob, PermanentJobError } from '../jobs/define-job.ts'
import { enqueue } from '../jobs/job-store.ts'
import type { Clock } from '../lib/clock.ts'
import type { IdGenerator } from '../lib/ids.ts'
import type { Metrics } from '../metrics/metrics.ts'
import { type Mailer, MailRejectedError } from './mailer.ts'

/**
 * Seconds after each failed attempt before the next: a restarting mail server or a greylisting
 * 4xx clears within the first minutes, a longer outage within hours; the last attempt comes about
 * 32 hours after the first. A permanent 5xx rejection is never retried (mailJob).
 */
export const MAIL_RETRY_SCHEDULE = [10, 60, 300, 1800, 7200, 21_600, 86_400]

const NullableString = Type.Union([Type.String(), Type.Null()])

/** A mail as rendered when queued: the payload of a `mail.send` job. */
export const MailMessage = Type.Object({
  to: Type.String(),
  bcc: NullableString,
  reply_to: NullableString,
  subject: Type.String(),
  text: Type.String(),
  /** The HTML part; a message without one is sent as plain text. */
  html: Type.Optional(Type.String()),
  /** The recipient's name for the To header, when known. */
  to_name: Type.Optional(NullableString),
  /** What the mail is (`signing_request`, `completed`, …), for the outbox listing and the logs. */
  kind: Type.Optional(Type.String()),
  /** What the mail is about, for the outbox listing and the audit trail (null: a notice to an account owner). */
  submission_id: NullableString,
  submitter_id: NullableString,
  /** The webhook endpoint a notice to the account owner is about. */
  webhook_endpoint_id: Type.Optional(Type.String()),
})
export type MailMessage = Static<typeof MailMessage>

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

/** What a mail job needs of the process: its mailer, logger, metrics and sender address. */
export interface MailJobDeps {
  mailer: Mailer
  logger: FastifyBaseLogger
  metrics: Metrics
  config: { mailFrom: string }
}

export const mailJob = defineJob({
  kind: 'mail.send',
  payload: MailMessage,
  retrySchedule: MAIL_RETRY_SCHEDULE,
  // The send gives up after 45 s (smtp-mailer.ts), within the 60 s lease: this only bounds a
  // mailer that would not, at the point where another worker may take the job anyway.
  timeoutMs: 60_000,
  handle: (message, job, deps: MailJobDeps) =>
    deliverMail(deps, message, mailMessageId(job.id, deps.config.mailFrom), job.id),
})

/** Queues `message` in the transaction of the change that caused it. */
export function enqueueMail(
  tx: Tx,
  deps: { clock: Clock; ids: IdGenerator },
  message: MailMessage,
): Promise<string> {
  return enqueue(tx, deps, mailJob, message)
}
