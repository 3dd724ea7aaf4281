// docs/api.md#bulk-send: the shapes of a bulk send — the request (JSON rows, or CSV text), the dry
// run's check, the job and its rows — each one schema feeding validation, types and the OpenAPI.
// Row data are checked by check-rows.ts, row by row, rather than by the schema: one malformed
// address among 10 000 rows is that row's error, not a refusal of the whole request.
import { type Static, Type } from 'typebox'
import type { BulkSendRowsTable, BulkSendsTable } from '../db/tables.ts'
import { Id, Metadata, Nullable, StringEnum, Timestamp } from '../http/common-schemas.ts'
import { creationOptions, SubmitterName, TemplateSubmitter } from '../submissions/creation-schemas.ts'

/** At most this many rows in one bulk send. */
export const MAX_BULK_ROWS = 10_000
/** Bytes of a bulk send's body, JSON or CSV. */
export const BULK_BODY_LIMIT = 20 * 1024 * 1024

const RowSubmitter = Type.Object(
  {
    role: Type.String({ minLength: 1, maxLength: 100, description: 'A role of the template' }),
    email: Type.Optional(
      Type.String({ maxLength: 320, description: "The signer's address, unless `members` is given" }),
    ),
    members: Type.Optional(
      Type.Array(
        Type.Object(
          {
            email: Type.String({ maxLength: 320 }),
            name: Type.Optional(SubmitterName),
          },
          { additionalProperties: false },
        ),
        {
          minItems: 2,
          maxItems: 10,
          description: 'A signer group instead of `email` (docs/api.md#signer-groups)',
        },
      ),
    ),
    name: Type.Optional(SubmitterName),
  },
  { additionalProperties: false, title: 'BulkSendRowSubmitter' },
)

/** The prefilled values of a row: the same as a submitter's `fields` on POST /v1/submissions. */
const RowValues = TemplateSubmitter.properties.fields

export const BulkSendRowInput = Type.Object(
  {
    submitters: Type.Array(RowSubmitter, {
      minItems: 1,
      maxItems: 50,
      description: 'One per role of the template',
    }),
    values: Type.Optional({
      ...RowValues,
      description: "Field name → value, prefilled in that field's role as a sender's `fields` are",
    }),
    external_id: Type.Optional(
      Type.String({ maxLength: 255, description: 'Your reference for the row; distinct across rows' }),
    ),
    metadata: Type.Optional({
      ...Metadata,
      description: "The submission's metadata, over the request's `metadata` key by key",
    }),
  },
  { additionalProperties: false, title: 'BulkSendRowInput' },
)
export type BulkSendRowInput = Static<typeof BulkSendRowInput>

const { submitters: _submitters, ...templateOptions } = creationOptions(TemplateSubmitter)

export const CreateBulkSendBody = Type.Object(
  {
    template_id: Id('tpl'),
    rows: Type.Optional(
      Type.Array(BulkSendRowInput, {
        minItems: 1,
        maxItems: MAX_BULK_ROWS,
        description: 'The rows, 1 to 10 000: one submission each. Exactly one of `rows` and `csv`',
      }),
    ),
    csv: Type.Optional(
      Type.String({
        minLength: 1,
        description: 'The rows as CSV text (docs/api.md#bulk-send: the column grammar), instead of `rows`',
      }),
    ),
    dry_run: Type.Optional(
      Type.Boolean({
        description: 'Check every row and create nothing: 200 with a `bulk_send_check`',
      }),
    ),
    ...templateOptions,
  },
  { additionalProperties: false, title: 'CreateBulkSendBody' },
)
export type CreateBulkSendBody = Static<typeof CreateBulkSendBody>

/** The options a `text/csv` body takes in the query string (the others need the JSON form). */
export const CreateBulkSendQuery = Type.Object(
  {
    template_id: Type.Optional(Id('tpl', 'Required with a `text/csv` body')),
    dry_run: Type.Optional(StringEnum(['true', 'false'] as const, { description: 'With a `text/csv` body' })),
    send_email: Type.Optional(
      StringEnum(['true', 'false'] as const, { description: 'With a `text/csv` body' }),
    ),
    signing_order: Type.Optional(
      StringEnum(['preserved', 'random'] as const, { description: 'With a `text/csv` body' }),
    ),
    expires_at: Type.Optional({ ...Timestamp, description: 'With a `text/csv` body' }),
  },
  { additionalProperties: false },
)

export const BulkSendError = Type.Object(
  {
    row: Type.Integer({ description: 'The data row, from 1 (a CSV header is not a row)' }),
    column: Type.String({
      description: 'The CSV column, or for JSON rows the path inside the row (`submitters[1].email`)',
    }),
    code: Type.String(),
    message: Type.String(),
  },
  { title: 'BulkSendError' },
)
export type BulkSendError = Static<typeof BulkSendError>

export const BulkSendCheck = Type.Object(
  {
    object: Type.Literal('bulk_send_check'),
    rows: Type.Integer({ description: 'Rows checked' }),
    errors: Type.Array(BulkSendError, { description: 'Every problem of every row, in row order' }),
  },
  { title: 'BulkSendCheck' },
)
export type BulkSendCheck = Static<typeof BulkSendCheck>

export const BULK_SEND_STATUSES = [
  'queued',
  'running',
  'completed',
  'completed_with_errors',
  'cancelled',
] as const

export const BulkSend = Type.Object(
  {
    object: Type.Literal('bulk_send'),
    id: Id('bulk'),
    template_id: Id('tpl'),
    status: StringEnum(BULK_SEND_STATUSES),
    counts: Type.Object({
      total: Type.Integer(),
      created: Type.Integer(),
      failed: Type.Integer(),
      cancelled: Type.Integer(),
      pending: Type.Integer(),
    }),
    send_email: Type.Boolean(),
    metadata: Metadata,
    created_at: Timestamp,
    completed_at: Nullable(Timestamp),
    cancelled_at: Nullable(Timestamp),
  },
  { title: 'BulkSend' },
)
export type BulkSend = Static<typeof BulkSend>

/** `data` of the `bulk_send.completed` event (docs/webhooks.md#the-body): the bulk send as it ended. */
export const BulkSendCompletedData = Type.Object({ object: BulkSend }, { title: 'BulkSendCompletedData' })
export type BulkSendCompletedData = Static<typeof BulkSendCompletedData>

export function toApiBulkSend(row: BulkSendsTable): BulkSend {
  const options = JSON.parse(row.options) as { send_email?: boolean; metadata?: BulkSend['metadata'] }
  return {
    object: 'bulk_send',
    id: row.id,
    template_id: row.template_id,
    status: row.status,
    counts: {
      total: row.total,
      created: row.created_count,
      failed: row.failed_count,
      cancelled: row.cancelled_count,
      pending: row.total - row.created_count - row.failed_count - row.cancelled_count,
    },
    send_email: options.send_email ?? true,
    metadata: options.metadata ?? {},
    created_at: row.created_at,
    completed_at: row.completed_at,
    cancelled_at: row.cancelled_at,
  }
}

export const BULK_ROW_STATUSES = ['pending', 'created', 'failed', 'cancelled'] as const

export const BulkSendRow = Type.Object(
  {
    object: Type.Literal('bulk_send_row'),
    row: Type.Integer(),
    status: StringEnum(BULK_ROW_STATUSES),
    external_id: Nullable(Type.String()),
    submission_id: Nullable(Id('sub')),
    errors: Type.Array(Type.Object({ column: Type.String(), code: Type.String(), message: Type.String() }), {
      description: 'Why the row failed; empty otherwise',
    }),
  },
  { title: 'BulkSendRow' },
)
export type BulkSendRow = Static<typeof BulkSendRow>

export function toApiBulkSendRow(row: BulkSendRowsTable): BulkSendRow {
  return {
    object: 'bulk_send_row',
    row: row.row,
    status: row.status,
    external_id: row.external_id,
    submission_id: row.submission_id,
    errors: JSON.parse(row.errors) as BulkSendRow['errors'],
  }
}
