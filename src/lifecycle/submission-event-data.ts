// The `data` of the events lifecycle/ records with a submission (docs/webhooks.md#the-body,
// docs/api.md#events): the submission as `object`, the member of a signer group who acted, the
// reminder of `submitter.reminded`, the cause of `submission.purged`. One schema per shape: the
// OpenAPI `webhooks` section publishes them (src/webhooks/webhook-events.ts) and the code that
// records the events is typed from them.
import { type Static, Type } from 'typebox'
import { Id, Nullable, StringEnum } from '../http/common-schemas.ts'
import type { PurgeCause } from '../metrics/metrics.ts'
import { SubmissionSnapshot } from './submission-snapshot.ts'

/** docs/privacy.md#purge: a delivery waiting when its submission is purged is sent scrubbed. */
const SCRUBBED = 'null in a delivery scrubbed by a purge (docs/privacy.md#purge)'

/** The member of a signer group who acted for it (docs/api.md#signer-groups), named in the event. */
export const ActingMember = Type.Object(
  {
    id: Id('grm'),
    email: Type.String(),
    name: Nullable(Type.String()),
  },
  { title: 'ActingMember' },
)
export type ActingMember = Static<typeof ActingMember>

/** `data` of the nine submission events. */
export const SubmissionEventData = Type.Object(
  {
    object: SubmissionSnapshot,
    member: Type.Optional(
      Type.Union([ActingMember, Type.Null()], {
        description: `On a move a member of a signer group made (view, sign, decline): who; ${SCRUBBED}`,
      }),
    ),
  },
  { title: 'SubmissionEventData' },
)

/** What `submitter.reminded` adds beside the submission (docs/api.md#reminders). */
export const ReminderDetails = Type.Object({
  submitter_id: Id('sbm', 'The signer reminded'),
  count: Nullable(
    Type.Integer({ minimum: 1, description: `The signer's \`reminders_sent\` after this one; ${SCRUBBED}` }),
  ),
  manual: Nullable(
    Type.Boolean({ description: `\`true\` for POST /v1/submitters/{id}/remind; ${SCRUBBED}` }),
  ),
})
export type ReminderDetails = Static<typeof ReminderDetails>

/** `data` of `submitter.reminded`. */
export const SubmitterRemindedData = Type.Object(
  { ...ReminderDetails.properties, object: SubmissionSnapshot },
  { title: 'SubmitterRemindedData' },
)

/** What `submission.purged` adds beside the purged submission (docs/api.md#purge). */
export const PurgeDetails = Type.Object({
  cause: StringEnum(['request', 'policy', 'erasure'] as const satisfies readonly PurgeCause[], {
    description: 'POST …/purge, the retention policy, or an erasure (docs/privacy.md)',
  }),
})
export type PurgeDetails = Static<typeof PurgeDetails>

/** `data` of `submission.purged`. */
export const SubmissionPurgedData = Type.Object(
  { ...PurgeDetails.properties, object: SubmissionSnapshot },
  { title: 'SubmissionPurgedData' },
)
