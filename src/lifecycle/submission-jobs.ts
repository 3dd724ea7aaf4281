// The two jobs a submission move queues in its own transaction, declared here without their
// handlers: lifecycle/ queues them but must not import the folders that run them (submissions/
// and webhooks/ import lifecycle/). The handlers are attached where the work is:
// submissions/finalize-submission.ts and webhooks/publish-event.ts, both listed in job-catalogue.ts.
import { Type } from 'typebox'
import { declareJob } from '../jobs/define-job.ts'

/** Fans a submission event out to the account's webhook endpoints: one delivery each. */
export const publishEventDeclaration = declareJob({
  kind: 'events.publish',
  payload: Type.Object({ event_id: Type.String() }),
  retrySchedule: [10, 60, 300, 1800],
})

/**
 * Makes the final PDF and the audit trail, then completes the submission. Five attempts: a passing
 * fault (storage, a killed child) clears within them; a document that fails every time (a hostile
 * one fails each the same way) stops there. No timeout: the child processes have their own.
 */
export const finalizeSubmissionDeclaration = declareJob({
  kind: 'submission.finalize',
  payload: Type.Object({ submission_id: Type.String() }),
  retrySchedule: [10, 60, 300, 1800],
})
