// docs/api.md#retention-policy: the policy as the API shows it (GET and PUT answer the same object,
// and `retention_policy.updated` carries it as `data.object`).
import { type Static, Type } from 'typebox'
import { StringEnum, Timestamp } from '../http/common-schemas.ts'
import { ENDED_STATUSES, type RetentionPolicy as StoredPolicy } from './retention-policy-store.ts'

export const MAX_RETENTION_DAYS = 3650

// One schema with both types (not anyOf): a refusal then says what is wrong ("must be >= 1") instead
// of "does not match any of the accepted forms".
export const DeleteAfterDays = Type.Unsafe<number | null>({
  type: ['integer', 'null'],
  minimum: 1,
  maximum: MAX_RETENTION_DAYS,
  description: `Days after a submission ends (completed, declined, expired or cancelled) before it is purged, 1–${MAX_RETENTION_DAYS}; null keeps ended submissions forever`,
})

export const AppliesTo = Type.Array(StringEnum(ENDED_STATUSES), {
  minItems: 1,
  maxItems: ENDED_STATUSES.length,
  uniqueItems: true,
  description: `The ended statuses the policy purges, each once, at least one: ${ENDED_STATUSES.join(', ')}`,
})

export const RetentionPolicy = Type.Object(
  {
    object: Type.Literal('retention_policy'),
    delete_after_days: DeleteAfterDays,
    applies_to: AppliesTo,
    updated_at: Type.Union([Timestamp, Type.Null()], {
      description: 'When the policy was last written; null while the default (keep forever) stands',
    }),
  },
  { title: 'RetentionPolicy' },
)
export type RetentionPolicy = Static<typeof RetentionPolicy>

export function toApiRetentionPolicy(policy: StoredPolicy): RetentionPolicy {
  return {
    object: 'retention_policy',
    delete_after_days: policy.delete_after_days,
    // Stored in the order given; shown in the order of ENDED_STATUSES, so a GET reads the same
    // whatever order a PUT listed them in.
    applies_to: ENDED_STATUSES.filter((status) => policy.applies_to.includes(status)),
    updated_at: policy.updated_at,
  }
}
