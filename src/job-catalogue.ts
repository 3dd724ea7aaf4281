// Every background job kind: its payload, retry schedule and handler; and the periodic tasks every
// worker runs. Webhook deliveries are not jobs: events.publish makes them, and the webhook
// dispatcher (webhooks/dispatcher.ts), which runs beside every worker, sends them.

import { purgeOldRouteDays } from './accounts/key-activity.ts'
import { purgeConsole } from './console/purge-console.ts'
import type { Deps } from './deps.ts'
import { purgeExpiredIdempotencyKeys } from './http/idempotency.ts'
import type { Housekeeping, JobCatalogue } from './jobs/worker.ts'
import { FINALIZE_SUBMISSION_JOB, PUBLISH_EVENT_JOB } from './lifecycle/apply-submission-move.ts'
import { MAIL_JOB, mailJob } from './mail/mail-job.ts'
import { purgeOldRequestLogs } from './request-logs/request-log-store.ts'
import { EMAIL_CODE_JOB, emailCodeJob } from './signing-page/email-code-job.ts'
import { EXPIRY_SWEEP_MS, expireDueSubmissions } from './submissions/expire-submissions.ts'
import { finalizeSubmissionJob } from './submissions/finalize-submission.ts'
import { disableStaleEndpoints } from './webhooks/disable-stale-endpoints.ts'
import { publishEventJob } from './webhooks/publish-event.ts'

export function jobCatalogue(deps: Deps): JobCatalogue {
  return {
    [MAIL_JOB]: mailJob({
      mailer: deps.mailer,
      logger: deps.logger,
      metrics: deps.metrics,
      mailFrom: deps.config.mailFrom,
    }),
    // Fans a submission event out to the account's webhook endpoints: one delivery each.
    [PUBLISH_EVENT_JOB]: publishEventJob(deps),
    [FINALIZE_SUBMISSION_JOB]: finalizeSubmissionJob(deps),
    // A signer's e-mail code, rendered when sent: the code is never stored (issue #20).
    [EMAIL_CODE_JOB]: emailCodeJob(deps),
  }
}

/** Periodic tasks run by every worker; each is safe to run on several workers at once. */
export function housekeeping(deps: Deps): Housekeeping[] {
  return [
    {
      everyMs: EXPIRY_SWEEP_MS,
      run: async () => {
        const expired = await expireDueSubmissions(deps)
        if (expired > 0) deps.logger.info({ expired }, 'submissions expired')
      },
    },
    {
      everyMs: 60 * 1000,
      run: async () => {
        const disabled = await disableStaleEndpoints(deps)
        if (disabled > 0)
          deps.logger.warn({ disabled }, 'webhook endpoints disabled after 7 days of failures')
      },
    },
    {
      everyMs: 10 * 60 * 1000,
      run: async () => {
        const purged = await purgeExpiredIdempotencyKeys(deps.db, deps.clock)
        if (purged > 0) deps.logger.info({ purged }, 'expired idempotency keys purged')
      },
    },
    // Issue #22 item 4: request logs are kept 7 days.
    {
      everyMs: 10 * 60 * 1000,
      run: async () => {
        const purged = await purgeOldRequestLogs(deps.db, deps.clock)
        if (purged > 0) deps.logger.info({ purged }, 'request logs older than 7 days purged')
      },
    },
    // Issue #22 item 5: a key's routes per day, kept for the deprecation notices' 30 days.
    {
      everyMs: 60 * 60 * 1000,
      run: async () => {
        const purged = await purgeOldRouteDays(deps.db, deps.clock)
        if (purged > 0) deps.logger.info({ purged }, "API keys' route days past 35 days purged")
      },
    },
    // Issue #23: the console's spent drafts (with their blobs), links, sessions and sign-in requests.
    {
      everyMs: 10 * 60 * 1000,
      run: async () => {
        const purged = await purgeConsole(deps)
        if (Object.values(purged).some((n) => n > 0)) deps.logger.info(purged, 'console rows purged')
      },
    },
  ]
}
