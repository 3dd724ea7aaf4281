// POST /v1/bulk_sends — docs/api.md#bulk-send: one template, up to 10 000 rows (JSON, or CSV as a
// `csv` string or a `text/csv` body). Every row is checked; a dry run answers the check (200) and
// writes nothing; otherwise the job and its rows are stored in one transaction — the rows the check
// refused already `failed` — and a worker creates the others (run-bulk-send.ts): 202.
import { fieldError } from '../errors.ts'
import { defineRoute } from '../http/define-route.ts'
import { enqueue } from '../jobs/job-store.ts'
import { toIso } from '../lib/clock.ts'
import { checkDeliverable } from '../mail/address-delivery.ts'
import { checkCommonOptions } from '../submissions/creation-rules.ts'
import { findTemplate } from '../templates/template-store.ts'
import {
  BULK_BODY_LIMIT,
  BulkSend,
  BulkSendCheck,
  CreateBulkSendBody,
  CreateBulkSendQuery,
  toApiBulkSend,
} from './bulk-send-schemas.ts'
import { insertBulkSend } from './bulk-send-store.ts'
import { type CheckedRow, checkRows, rowErrors } from './check-rows.ts'
import { rowsFromCsv } from './csv-rows.ts'
import { fromJsonRows } from './row-input.ts'
import { finishJob, runBulkSendDeclaration, type StoredRowInput } from './run-bulk-send.ts'

/** A `text/csv` body with its options in the query string, as the JSON body it stands for. */
function csvBody(text: string, query: Record<string, unknown>): unknown {
  const flag = (v: unknown) => (v === 'true' ? true : v === 'false' ? false : v)
  return {
    csv: text,
    ...(query.template_id !== undefined && { template_id: query.template_id }),
    ...(query.dry_run !== undefined && { dry_run: flag(query.dry_run) }),
    ...(query.send_email !== undefined && { send_email: flag(query.send_email) }),
    ...(query.signing_order !== undefined && { signing_order: query.signing_order }),
    ...(query.expires_at !== undefined && { expires_at: query.expires_at }),
  }
}

export const createBulkSend = defineRoute({
  operationId: 'createBulkSend',
  method: 'POST',
  url: '/v1/bulk_sends',
  summary: 'Send a template to many recipients',
  description:
    'Up to 10 000 rows, each one submission from the template: JSON `rows`, CSV text in `csv`, or a `text/csv` body with its options in the query string (docs/api.md#bulk-send: the column grammar). Every row is checked first; with `dry_run` the answer is 200 with every problem of every row and nothing is created. Otherwise 202 with the job: workers create the rows in row order, each exactly once. Counts once against the per-minute quota.',
  tag: 'Bulk sends',
  idempotent: true,
  bodyLimit: BULK_BODY_LIMIT,
  textBody: {
    type: 'text/csv',
    description:
      'The rows as CSV (RFC 4180, UTF-8): a header of `ROLE.email`, `ROLE.name`, `field:FIELD_NAME`, `external_id`, `metadata.KEY` columns, then one line per row. Options in the query string: `template_id` (required), `dry_run`, `send_email`, `signing_order`, `expires_at`',
    toBody: csvBody,
  },
  schema: {
    querystring: CreateBulkSendQuery,
    body: CreateBulkSendBody,
    response: { 202: BulkSend },
  },
  alternative: {
    status: 200,
    schema: BulkSendCheck,
    description: 'The dry run: every row checked, nothing created',
    when: (result) => (result as { object?: string }).object === 'bulk_send_check',
  },
  errors: ['template_not_found', 'template_archived', 'email_not_deliverable'],
  handler: async ({ body, query, headers, scope, transaction, requestId }, deps) => {
    const { template_id: templateId, rows, csv, dry_run: dryRun, ...options } = body
    // A text/csv body's query was read into its body (textBody); with JSON the options are in the
    // body, and a query string would be silently ignored: refused by name.
    const stray = Object.keys(query ?? {})[0]
    if (stray !== undefined && !String(headers['content-type'] ?? '').startsWith('text/csv')) {
      throw fieldError(
        'invalid_request',
        stray,
        'is an option of a text/csv body only; with JSON give it in the body.',
      )
    }
    if ((rows === undefined) === (csv === undefined)) {
      throw fieldError(
        'invalid_request',
        'rows',
        'give either `rows` or `csv` (the rows as CSV text), not both nor neither.',
      )
    }
    checkCommonOptions(options, deps.clock.now())
    await checkDeliverable(deps.mailer, [
      { param: 'bcc_email', email: options.bcc_email },
      { param: 'reply_to', email: options.reply_to },
    ])
    const template = await findTemplate(deps.db, scope, templateId)
    if (!template)
      throw fieldError('template_not_found', 'template_id', `no template ${templateId} in this environment.`)
    if (template.status === 'archived') {
      throw fieldError(
        'template_archived',
        'template_id',
        `template ${templateId} is archived; nothing can be sent from it.`,
      )
    }
    const input = csv !== undefined ? rowsFromCsv(csv, template.fields) : fromJsonRows(rows ?? [])
    const checked = await checkRows(input, template.fields, deps.mailer, options.metadata ?? {})
    if (dryRun) {
      return { object: 'bulk_send_check', rows: checked.length, errors: rowErrors(checked) } as never
    }
    return transaction(async (tx) => {
      const at = toIso(deps.clock.now())
      const id = deps.ids.next('bulk')
      const failed = checked.filter((c) => c.problems.length > 0).length
      const job = {
        id,
        account_id: scope.accountId,
        environment: scope.environment,
        template_id: templateId,
        status: 'queued' as const,
        options: JSON.stringify(options),
        total: checked.length,
        created_count: 0,
        failed_count: failed,
        cancelled_count: 0,
        request_id: requestId,
        created_at: at,
        updated_at: at,
        completed_at: null,
        cancelled_at: null,
      }
      await insertBulkSend(
        tx,
        job,
        checked.map((c) => rowOf(id, c, at)),
      )
      if (failed === checked.length) return toApiBulkSend(await finishJob(tx, deps, job))
      await enqueue(tx, deps, runBulkSendDeclaration, { bulk_send_id: id })
      return toApiBulkSend(job)
    })
  },
})

function rowOf(bulkSendId: string, c: CheckedRow, at: string) {
  const failed = c.problems.length > 0
  const input: StoredRowInput = { submitters: c.submitters, metadata: c.metadata }
  return {
    bulk_send_id: bulkSendId,
    row: c.row,
    status: failed ? ('failed' as const) : ('pending' as const),
    input: failed ? '{}' : JSON.stringify(input),
    external_id: c.externalId,
    submission_id: null,
    errors: JSON.stringify(c.problems),
    updated_at: at,
  }
}
