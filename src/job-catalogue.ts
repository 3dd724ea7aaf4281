// Every background job kind and every periodic task, as app.ts lists every route: each is declared
// in the folder that owns it (defineJob, definePeriodicTask) and listed here once. Webhook
// deliveries are not jobs: events.publish makes them, and the webhook dispatcher
// (webhooks/dispatcher.ts), which runs beside every worker, sends them.

import { purgeRouteDaysTask } from './accounts/key-activity.ts'
import { runBulkSendJob } from './bulk-sends/run-bulk-send.ts'
import { purgeConsoleTask } from './console/purge-console.ts'
import type { Deps } from './deps.ts'
import { purgeIdempotencyKeysTask } from './http/idempotency.ts'
import { type AnyJobDefinition, bindJobs, type JobCatalogue } from './jobs/define-job.ts'
import { type BoundPeriodicTask, bindPeriodicTasks, type PeriodicTask } from './jobs/define-periodic-task.ts'
import { mailJob } from './mail/mail-job.ts'
import { applyRetentionTask } from './privacy/apply-retention.ts'
import { purgeFilesJob } from './privacy/purge.ts'
import { erasureJob } from './privacy/run-erasure.ts'
import { purgeRequestLogsTask } from './request-logs/request-log-store.ts'
import { emailCodeJob } from './signing-page/email-code-job.ts'
import { expireSubmissionsTask } from './submissions/expire-submissions.ts'
import { finalizeSubmissionJob } from './submissions/finalize-submission.ts'
import { reminderJob } from './submissions/reminders.ts'
import { disableStaleEndpointsTask } from './webhooks/disable-stale-endpoints.ts'
import { publishEventJob } from './webhooks/publish-event.ts'

/** Every job kind a worker runs. */
export const JOBS: AnyJobDefinition<Deps>[] = [
  mailJob,
  // A signer's e-mail code, rendered when sent: the code is never stored.
  emailCodeJob,
  publishEventJob,
  finalizeSubmissionJob,
  // One per automatic reminder, queued for its due time (docs/api.md#reminders).
  reminderJob,
  // A bulk send's rows, a slice per run, each run queuing the next (docs/api.md#bulk-send).
  runBulkSendJob,
  // The files of a purged submission, deleted again whatever crashed (docs/privacy.md#purge).
  purgeFilesJob,
  // A data subject's erasure request, one run over the submissions it found.
  erasureJob,
]

/** The tasks every worker runs on their interval; each is safe to run on several workers at once. */
export const PERIODIC_TASKS: PeriodicTask<Deps>[] = [
  expireSubmissionsTask,
  disableStaleEndpointsTask,
  purgeIdempotencyKeysTask,
  purgeRequestLogsTask,
  purgeRouteDaysTask,
  purgeConsoleTask,
  // The retention policies (docs/privacy.md#retention-policy).
  applyRetentionTask,
]

/** The job kinds bound to one process's deps, as runWorker runs them. */
export function jobCatalogue(deps: Deps): JobCatalogue {
  return bindJobs(JOBS, deps)
}

/** The periodic tasks bound to one process's deps, as runWorker runs them. */
export function periodicTasks(deps: Deps): BoundPeriodicTask[] {
  return bindPeriodicTasks(PERIODIC_TASKS, deps)
}
