// docs/privacy.md#purge: the rows of a batch of submissions as a purge leaves them, written in the
// one transaction that sets their `purged_at`. The inventory of every table is in purge-inventory.ts;
// a table that holds a submission's personal data is scrubbed here, each statement through an index
// and for the whole batch at once (a few dozen statements whether it holds one submission or 50).

import { chunksOf, valueByKey } from '../db/batch.ts'
import type { Environment, Executor, SubmissionsTable, Tx } from '../db/tables.ts'
import { PURGED_VALUES } from '../documents/stored-values.ts'
import { scrubJson } from './scrub-json.ts'

/** The submissions of one purge transaction: one scope, locked by the caller. */
export interface PurgeBatch {
  account_id: string
  environment: Environment
  submissions: Array<Pick<SubmissionsTable, 'id' | 'template_id' | 'bulk_send_id' | 'bulk_send_row'>>
}

const idsOf = (batch: PurgeBatch) => batch.submissions.map((s) => s.id)

/** The submissions themselves: what they said to whom and why goes; statuses, times and hashes stay. */
export async function scrubSubmissionRows(
  tx: Tx,
  batch: PurgeBatch,
  at: string,
): Promise<SubmissionsTable[]> {
  return tx
    .updateTable('submissions')
    .set({
      purged_at: at,
      updated_at: at,
      metadata: 'null',
      redirect_url: null,
      bcc_email: null,
      reply_to: null,
      message_subject: null,
      message_body: null,
      finalize_error: null,
      final_pdf_key: null,
      audit_pdf_key: null,
      audit_json_key: null,
    })
    .where('account_id', '=', batch.account_id)
    .where('environment', '=', batch.environment)
    .where('id', 'in', idsOf(batch))
    .returningAll()
    .execute()
}

/** The addresses of the signers and group members of several submissions of one scope. */
export async function addressesOfSubmissions(
  db: Executor,
  scope: { account_id: string; environment: SubmissionsTable['environment'] },
  submissionIds: string[],
): Promise<string[]> {
  if (submissionIds.length === 0) return []
  const signers = await db
    .selectFrom('submitters')
    .select(['id', 'email'])
    .where('account_id', '=', scope.account_id)
    .where('environment', '=', scope.environment)
    .where('submission_id', 'in', submissionIds)
    .execute()
  // Through the signers' ids: group_members is indexed by the signer, not by the submission.
  const members =
    signers.length === 0
      ? []
      : await db
          .selectFrom('group_members')
          .select('email')
          .where(
            'submitter_id',
            'in',
            signers.map((s) => s.id),
          )
          .execute()
  return [...new Set([...signers, ...members].map((r) => r.email).filter((e) => e !== ''))]
}

/**
 * Request logs hold no bodies, but the error message of a refused request can name an address
 * (422 `email_not_deliverable`): within the scope's batches (kept 7 days), every occurrence of
 * the addresses becomes `[purged]`. The address sits inside a JSON string of the batch's string
 * table, so the replacement keeps the batch readable.
 */
export async function scrubRequestLogs(
  tx: Tx,
  target: Pick<PurgeBatch, 'account_id' | 'environment'>,
  addresses: string[],
): Promise<void> {
  if (addresses.length === 0) return
  // Only a refused request's error message can name an address: the batches that hold one are
  // found by their small `statuses` column first (",200,201," holds none), and only their records
  // are read, once for all the addresses. A busy account's week of successful requests (millions)
  // is never read (docs/benchmarks.md, purge).
  const withErrors = await tx
    .selectFrom('request_log_batches')
    .select('id')
    .where('account_id', '=', target.account_id)
    .where('environment', '=', target.environment)
    .where((eb) => eb.or([eb('statuses', 'like', '%,4__,%'), eb('statuses', 'like', '%,5__,%')]))
    .execute()
  if (withErrors.length === 0) return
  const escaped = addresses.map((address) => JSON.stringify(address).slice(1, -1))
  for (let i = 0; i < withErrors.length; i += 500) {
    const batches = await tx
      .selectFrom('request_log_batches')
      .select(['id', 'records'])
      .where(
        'id',
        'in',
        withErrors.slice(i, i + 500).map((b) => b.id),
      )
      .where((eb) => eb.or(escaped.map((e) => eb('records', 'like', `%${e}%`))))
      .execute()
    for (const batch of batches) {
      let records = batch.records
      for (const e of escaped) records = records.split(e).join('[purged]')
      if (records !== batch.records) {
        await tx.updateTable('request_log_batches').set({ records }).where('id', '=', batch.id).execute()
      }
    }
  }
}

/** Their signers keep id, role, position, statuses, times and link slug (the page says "deleted"). */
export async function scrubSigners(tx: Tx, batch: PurgeBatch): Promise<string[]> {
  const signers = await tx
    .updateTable('submitters')
    .set({
      email: '',
      email_key: '',
      name: null,
      phone: null,
      external_id: null,
      metadata: 'null',
      values: PURGED_VALUES,
      opened_ip: null,
      opened_user_agent: null,
      signed_ip: null,
      signed_user_agent: null,
      declined_ip: null,
      declined_user_agent: null,
      decline_reason: null,
    })
    .where('account_id', '=', batch.account_id)
    .where('environment', '=', batch.environment)
    .where('submission_id', 'in', idsOf(batch))
    .returning('id')
    .execute()
  await tx.deleteFrom('signing_progress').where('submission_id', 'in', idsOf(batch)).execute()
  // Through the signers' ids: these tables are indexed by the signer, not by the submission.
  for (const ids of chunksOf(signers.map((s) => s.id))) {
    await tx.deleteFrom('group_members').where('submitter_id', 'in', ids).execute()
    await tx.deleteFrom('signing_request_resends').where('submitter_id', 'in', ids).execute()
    await tx.deleteFrom('email_2fa_codes').where('submitter_id', 'in', ids).execute()
  }
  return signers.map((s) => s.id)
}

/**
 * The journal keeps each event's id, type and time, its data scrubbed (scrub-json.ts) and no
 * actor's address or agent; the webhook deliveries of those events (found per endpoint, through
 * the index `webhook_deliveries_event`) keep their state with the body scrubbed the same way,
 * and their attempts lose what the receiver answered. Each list is written in one UPDATE per
 * STATEMENT_ROWS rows, every row its own scrubbed text (db/batch.ts).
 */
export async function scrubJournal(tx: Tx, batch: PurgeBatch): Promise<void> {
  const events = await tx
    .selectFrom('events')
    .select(['id', 'data'])
    .where('account_id', '=', batch.account_id)
    .where('environment', '=', batch.environment)
    .where('submission_id', 'in', idsOf(batch))
    .execute()
  for (const chunk of chunksOf(events)) {
    await tx
      .updateTable('events')
      .set({
        data: valueByKey('id', new Map(chunk.map((e) => [e.id, scrubJson(e.data)]))),
        actor_ip: null,
        actor_user_agent: null,
      })
      .where(
        'id',
        'in',
        chunk.map((e) => e.id),
      )
      .execute()
  }
  if (events.length === 0) return
  const endpoints = await tx
    .selectFrom('webhook_endpoints')
    .select('id')
    .where('account_id', '=', batch.account_id)
    .where('environment', '=', batch.environment)
    .execute()
  if (endpoints.length === 0) return
  for (const chunk of chunksOf(events)) {
    const deliveries = await tx
      .selectFrom('webhook_deliveries')
      .select(['id', 'body'])
      .where(
        'endpoint_id',
        'in',
        endpoints.map((e) => e.id),
      )
      .where(
        'event_id',
        'in',
        chunk.map((e) => e.id),
      )
      .execute()
    for (const part of chunksOf(deliveries)) {
      const ids = part.map((d) => d.id)
      await tx
        .updateTable('webhook_deliveries')
        .set({ body: valueByKey('id', new Map(part.map((d) => [d.id, scrubJson(d.body)]))) })
        .where('id', 'in', ids)
        .execute()
      await tx
        .updateTable('webhook_attempts')
        .set({ response_body: null })
        .where('delivery_id', 'in', ids)
        .execute()
    }
  }
}

/**
 * Mails (the outbox: rendered bodies with names and links), reminders and the finalization of these
 * submissions: deleted, found by `jobs.submission_id`. A job running right now keeps its row (its
 * worker marks it done) with the payload emptied.
 */
export async function dropJobs(tx: Tx, batch: PurgeBatch): Promise<number> {
  const deleted = await tx
    .deleteFrom('jobs')
    .where('submission_id', 'in', idsOf(batch))
    .where('state', '!=', 'running')
    .executeTakeFirst()
  await tx
    .updateTable('jobs')
    .set({ payload: '{}' })
    .where('submission_id', 'in', idsOf(batch))
    .where('state', '=', 'running')
    .execute()
  return Number(deleted.numDeletedRows)
}

/**
 * Stored answers of idempotent requests that name one of the submissions (its creation, a
 * resend…): scrubbed. One read of the scope's keys (kept 24 hours) for the whole batch.
 */
export async function scrubIdempotentAnswers(tx: Tx, batch: PurgeBatch): Promise<void> {
  const rows = await tx
    .selectFrom('idempotency_keys')
    .select(['route', 'key', 'response_body'])
    .where('account_id', '=', batch.account_id)
    .where('environment', '=', batch.environment)
    .where((eb) => eb.or(idsOf(batch).map((id) => eb('response_body', 'like', `%"${id}"%`))))
    .execute()
  for (const row of rows) {
    await tx
      .updateTable('idempotency_keys')
      .set({ response_body: row.response_body === null ? null : scrubJson(row.response_body) })
      .where('account_id', '=', batch.account_id)
      .where('environment', '=', batch.environment)
      .where('route', '=', row.route)
      .where('key', '=', row.key)
      .execute()
  }
}

/** The bulk-send rows that made them: their input (addresses, names, values) and external id go. */
export async function scrubBulkRows(tx: Tx, batch: PurgeBatch): Promise<void> {
  const rowsBySend = new Map<string, number[]>()
  for (const s of batch.submissions) {
    if (s.bulk_send_id === null || s.bulk_send_row === null) continue
    rowsBySend.set(s.bulk_send_id, [...(rowsBySend.get(s.bulk_send_id) ?? []), s.bulk_send_row])
  }
  for (const [bulkSendId, rows] of rowsBySend) {
    await tx
      .updateTable('bulk_send_rows')
      .set({ input: 'null', external_id: null })
      .where('bulk_send_id', '=', bulkSendId)
      .where('row', 'in', rows)
      .execute()
  }
}

/**
 * A template made for its submission alone (from_pdf, from_html, from_docx: `internal`) loses its
 * names, fields and metadata once no submission that is not purged uses it; its documents keep
 * size, pages and SHA-256. A shared template is the sender's, not the signer's: untouched. Answers
 * the internal template scrubbed for each submission that had one (submission id → template id).
 */
export async function scrubInternalTemplates(tx: Tx, batch: PurgeBatch): Promise<Map<string, string>> {
  const templates = await tx
    .selectFrom('templates')
    .select(['id', 'documents'])
    .where('account_id', '=', batch.account_id)
    .where('environment', '=', batch.environment)
    .where('id', 'in', [...new Set(batch.submissions.map((s) => s.template_id))])
    .where('internal', '=', 1)
    .execute()
  if (templates.length === 0) return new Map()
  const stillUsed = await tx
    .selectFrom('submissions')
    .select('template_id')
    .distinct()
    .where('account_id', '=', batch.account_id)
    .where('environment', '=', batch.environment)
    .where(
      'template_id',
      'in',
      templates.map((t) => t.id),
    )
    .where('id', 'not in', idsOf(batch))
    .where('purged_at', 'is', null)
    .execute()
  const used = new Set(stillUsed.map((s) => s.template_id))
  const scrubbed = templates.filter((t) => !used.has(t.id))
  for (const chunk of chunksOf(scrubbed)) {
    const documents = chunk.map((t) => {
      const renamed = (JSON.parse(t.documents) as Array<Record<string, unknown>>).map((d, i) => ({
        ...d,
        name: `document-${i + 1}.pdf`,
      }))
      return [t.id, JSON.stringify(renamed)] as const
    })
    await tx
      .updateTable('templates')
      .set({
        name: 'Purged',
        external_id: null,
        metadata: '{}',
        fields: '[]',
        documents: valueByKey('id', new Map(documents)),
      })
      .where(
        'id',
        'in',
        chunk.map((t) => t.id),
      )
      .execute()
  }
  const scrubbedIds = new Set(scrubbed.map((t) => t.id))
  return new Map(
    batch.submissions.filter((s) => scrubbedIds.has(s.template_id)).map((s) => [s.id, s.template_id]),
  )
}

/** The submissions of the list that a legal hold in force names. */
export async function heldAmong(db: Executor, submissionIds: string[]): Promise<Set<string>> {
  if (submissionIds.length === 0) return new Set()
  const rows = await db
    .selectFrom('legal_hold_submissions')
    .innerJoin('legal_holds', 'legal_holds.id', 'legal_hold_submissions.hold_id')
    .select('legal_hold_submissions.submission_id')
    .where('legal_hold_submissions.submission_id', 'in', submissionIds)
    .where('legal_holds.released_at', 'is', null)
    .execute()
  return new Set(rows.map((r) => r.submission_id))
}
