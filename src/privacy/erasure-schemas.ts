// docs/privacy.md#erasure: the shapes of an erasure request and its report.
import { Type } from 'typebox'
import type { ErasuresTable } from '../db/tables.ts'
import { Id, Nullable, StringEnum, Timestamp } from '../http/common-schemas.ts'
import type { ErasureItem } from './erasure-store.ts'

export const CreateErasureBody = Type.Object(
  {
    email: Type.String({
      format: 'email',
      maxLength: 254,
      description: "The data subject's address: every submission where it signs or was a group member",
    }),
  },
  { additionalProperties: false, title: 'CreateErasureRequest' },
)

const OUTCOMES = ['purged', 'already_purged', 'not_ended', 'held', 'pending'] as const

export const Erasure = Type.Object(
  {
    id: Id('era'),
    object: Type.Literal('erasure'),
    status: StringEnum(['pending', 'completed'] as const, {
      description: 'pending: the purges are under way; completed: the report is final',
    }),
    submissions: Type.Array(
      Type.Object({
        submission_id: Id('sub'),
        outcome: StringEnum(OUTCOMES, {
          description:
            'purged: now; already_purged: before this request; not_ended: still active, so not purged (ask again once it ends, or cancel it); held: a legal hold keeps it; pending: not reached yet',
        }),
      }),
      { description: 'Every submission of this environment where the address signs or was a group member' },
    ),
    counts: Type.Object({
      found: Type.Integer({ minimum: 0 }),
      purged: Type.Integer({ minimum: 0 }),
      not_purged: Type.Integer({ minimum: 0, description: 'not_ended and held' }),
    }),
    created_at: Timestamp,
    completed_at: Nullable(Timestamp),
  },
  {
    title: 'Erasure',
    description: 'The address itself is never stored or shown: the report keeps only a keyed hash of it.',
  },
)

export function toApiErasure(row: ErasuresTable) {
  const submissions = JSON.parse(row.report) as ErasureItem[]
  const count = (...outcomes: ErasureItem['outcome'][]) =>
    submissions.filter((s) => outcomes.includes(s.outcome)).length
  return {
    id: row.id,
    object: 'erasure' as const,
    status: row.status,
    submissions,
    counts: {
      found: submissions.length,
      purged: count('purged', 'already_purged'),
      not_purged: count('not_ended', 'held'),
    },
    created_at: row.created_at,
    completed_at: row.completed_at,
  }
}
