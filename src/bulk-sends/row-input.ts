// docs/api.md#bulk-send: one shape for a row, whether it came as JSON or as a CSV line, with the
// name of the column (or the path inside a JSON row) of each thing in it, for the check's messages.
import type { FieldValue } from '../documents/field-values.ts'
import type { BulkSendRowInput } from './bulk-send-schemas.ts'

export interface RowSubmitter {
  role: string
  email?: string
  members?: Array<{ email: string; name?: string }>
  name?: string
  /** Where each part is, for messages. */
  at: { role: string; email: string; member: (j: number) => string; name: string }
}

export interface RowValue {
  name: string
  /** As given: a CSV cell is text, read by the field's type (check-rows.ts). */
  value: FieldValue
  fromText: boolean
  column: string
}

export interface RowInput {
  submitters: RowSubmitter[]
  values: RowValue[]
  externalId?: string
  metadata: Record<string, string | number | boolean | null>
  /** Problems the reading itself found (a CSV cell too long), reported with the check's. */
  problems: Array<{ column: string; code: string; message: string }>
  /** Where `submitters` is, for a role with no submitter (`submitters`, or the role's email column). */
  missingRoleColumn: (role: string) => string
  valueColumn: (name: string) => string
}

export function fromJsonRows(rows: BulkSendRowInput[]): RowInput[] {
  return rows.map((row) => ({
    submitters: row.submitters.map((s, i) => ({
      role: s.role,
      ...(s.email !== undefined && { email: s.email }),
      ...(s.members !== undefined && { members: s.members }),
      ...(s.name !== undefined && { name: s.name }),
      at: {
        role: `submitters[${i}].role`,
        email: `submitters[${i}].email`,
        member: (j) => `submitters[${i}].members[${j}].email`,
        name: `submitters[${i}].name`,
      },
    })),
    values: Object.entries(row.values ?? {}).map(([name, value]) => ({
      name,
      value,
      fromText: false,
      column: `values.${name}`,
    })),
    ...(row.external_id !== undefined && { externalId: row.external_id }),
    metadata: row.metadata ?? {},
    problems: [],
    missingRoleColumn: () => 'submitters',
    valueColumn: (name) => `values.${name}`,
  }))
}
