// docs/privacy.md#legal-holds: the shapes of a legal hold, as requests give them and answers show them.
import { Type } from 'typebox'
import type { LegalHoldsTable } from '../db/tables.ts'
import { Id, Nullable, StringEnum, Timestamp } from '../http/common-schemas.ts'

/** At most this many submissions in one hold (one request, one transaction). */
export const MAX_HELD_SUBMISSIONS = 1000

export const CreateLegalHoldBody = Type.Object(
  {
    submission_ids: Type.Array(Id('sub'), {
      minItems: 1,
      maxItems: MAX_HELD_SUBMISSIONS,
      uniqueItems: true,
      description: `The submissions to keep (1–${MAX_HELD_SUBMISSIONS}, each of this environment)`,
    }),
    reason: Type.String({
      minLength: 1,
      maxLength: 500,
      description: 'Why they are kept (a case, a request from an authority): shown in the journal',
    }),
  },
  { additionalProperties: false, title: 'CreateLegalHoldRequest' },
)

export const LegalHold = Type.Object(
  {
    id: Id('hold'),
    object: Type.Literal('legal_hold'),
    status: StringEnum(['active', 'released'] as const, {
      description: 'active: its submissions are never purged; released: it holds nothing any more',
    }),
    reason: Type.String(),
    submission_ids: Type.Array(Id('sub')),
    created_at: Timestamp,
    released_at: Nullable(Timestamp),
  },
  { title: 'LegalHold' },
)

export function toApiLegalHold(row: LegalHoldsTable, submissionIds: string[]) {
  return {
    id: row.id,
    object: 'legal_hold' as const,
    status: row.released_at === null ? ('active' as const) : ('released' as const),
    reason: row.reason,
    submission_ids: submissionIds,
    created_at: row.created_at,
    released_at: row.released_at,
  }
}
