// docs/privacy.md#purge: the rows of one submission as a purge leaves them, written in the one
// transaction that sets `purged_at`. The inventory of every table is in purge-inventory.ts; a table
// that holds a submission's personal data is scrubbed here, each statement through an index.

import type { Executor, SubmissionsTable, Tx } from '../db/tables.ts'
import { scrubJson } from './scrub-json.ts'

type Target = Pick<SubmissionsTable, 'id' | 'account_id' | 'environment' | 'template_id'>

/** The submission itself: what it said to whom and why goes; statuses, times and hashes stay. */
export async function scrubSubmissionRow(tx: Tx, target: Target, at: string): Promise<SubmissionsTable> {
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
    .where('id', '=', target.id)
    .where('account_id', '=', target.account_id)
    .where('environment', '=', target.environment)
    .returningAll()
    .executeTakeFirstOrThrow()
}

/** The addresses of its signers and group members, read before they are scrubbed. */
export function addressesOf(tx: Tx, target: Target): Promise<string[]> {
  return addressesOfSubmissions(tx, target, [target.id])
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
  target: Pick<Target, 'account_id' | 'environment'>,
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

/** Its signers keep id, role, position, statuses, times and link slug (the page says "deleted"). */
export async function scrubSigners(tx: Tx, target: Target): Promise<string[]> {
  const signers = await tx
    .updateTable('submitters')
    .set({
      email: '',
      email_key: '',
      name: null,
      phone: null,
      external_id: null,
      metadata: 'null',
      values: '{}',
      opened_ip: null,
      opened_user_agent: null,
      signed_ip: null,
      signed_user_agent: null,
      declined_ip: null,
      declined_user_agent: null,
      decline_reason: null,
    })
    .where('account_id', '=', target.account_id)
    .where('environment', '=', target.environment)
    .where('submission_id', '=', target.id)
    .returning('id')
    .execute()
  const ids = signers.map((s) => s.id)
  await tx.deleteFrom('signing_progress').where('submission_id', '=', target.id).execute()
  if (ids.length === 0) return ids
  // Through the signer's id: these tables are indexed by it, not by the submission.
  await tx.deleteFrom('group_members').where('submitter_id', 'in', ids).execute()
  await tx.deleteFrom('signing_request_resends').where('submitter_id', 'in', ids).execute()
  await tx.deleteFrom('email_2fa_codes').where('submitter_id', 'in', ids).execute()
  return ids
}

/**
 * The journal keeps each event's id, type and time, its data scrubbed (scrub-json.ts) and no
 * actor's address or agent; the webhook deliveries of those events (found per endpoint, through
 * the index `webhook_deliveries_event`) keep their state with the body scrubbed the same way,
 * and their attempts lose what the receiver answered.
 */
export async function scrubJournal(tx: Tx, target: Target): Promise<void> {
  const events = await tx
    .selectFrom('events')
    .select(['id', 'data'])
    .where('account_id', '=', target.account_id)
    .where('environment', '=', target.environment)
    .where('submission_id', '=', target.id)
    .execute()
  for (const event of events) {
    await tx
      .updateTable('events')
      .set({ data: scrubJson(event.data), actor_ip: null, actor_user_agent: null })
      .where('id', '=', event.id)
      .execute()
  }
  if (events.length === 0) return
  const endpoints = await tx
    .selectFrom('webhook_endpoints')
    .select('id')
    .where('account_id', '=', target.account_id)
    .where('environment', '=', target.environment)
    .execute()
  if (endpoints.length === 0) return
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
      events.map((e) => e.id),
    )
    .execute()
  for (const delivery of deliveries) {
    await tx
      .updateTable('webhook_deliveries')
      .set({ body: scrubJson(delivery.body) })
      .where('id', '=', delivery.id)
      .execute()
    await tx
      .updateTable('webhook_attempts')
      .set({ response_body: null })
      .where('delivery_id', '=', delivery.id)
      .execute()
  }
}

/**
 * Mails (the outbox: rendered bodies with names and links), reminders and the finalization of this
 * submission: deleted, found by `jobs.submission_id`. A job running right now keeps its row (its
 * worker marks it done) with the payload emptied.
 */
export async function dropJobs(tx: Tx, target: Target): Promise<number> {
  const deleted = await tx
    .deleteFrom('jobs')
    .where('submission_id', '=', target.id)
    .where('state', '!=', 'running')
    .executeTakeFirst()
  await tx
    .updateTable('jobs')
    .set({ payload: '{}' })
    .where('submission_id', '=', target.id)
    .where('state', '=', 'running')
    .execute()
  return Number(deleted.numDeletedRows)
}

/** Stored answers of idempotent requests that name the submission (its creation, a resend…): scrubbed. */
export async function scrubIdempotentAnswers(tx: Tx, target: Target): Promise<void> {
  const rows = await tx
    .selectFrom('idempotency_keys')
    .select(['route', 'key', 'response_body'])
    .where('account_id', '=', target.account_id)
    .where('environment', '=', target.environment)
    .where('response_body', 'like', `%"${target.id}"%`)
    .execute()
  for (const row of rows) {
    await tx
      .updateTable('idempotency_keys')
      .set({ response_body: row.response_body === null ? null : scrubJson(row.response_body) })
      .where('account_id', '=', target.account_id)
      .where('environment', '=', target.environment)
      .where('route', '=', row.route)
      .where('key', '=', row.key)
      .execute()
  }
}

/** The bulk-send row that made it: its input (addresses, names, values) and external id go. */
export async function scrubBulkRow(tx: Tx, submission: SubmissionsTable): Promise<void> {
  if (submission.bulk_send_id === null || submission.bulk_send_row === null) return
  await tx
    .updateTable('bulk_send_rows')
    .set({ input: 'null', external_id: null })
    .where('bulk_send_id', '=', submission.bulk_send_id)
    .where('row', '=', submission.bulk_send_row)
    .execute()
}

/**
 * The template made for this submission alone (from_pdf, from_html, from_docx: `internal`) loses
 * its names, fields and metadata; its documents keep size, pages and SHA-256. A shared template is
 * the sender's, not the signer's: untouched. Answers the internal template's id, or null.
 */
export async function scrubInternalTemplate(tx: Tx, target: Target): Promise<string | null> {
  const template = await tx
    .selectFrom('templates')
    .select(['id', 'internal', 'documents'])
    .where('id', '=', target.template_id)
    .where('account_id', '=', target.account_id)
    .where('environment', '=', target.environment)
    .executeTakeFirst()
  if (template?.internal !== 1) return null
  const others = await tx
    .selectFrom('submissions')
    .select('id')
    .where('account_id', '=', target.account_id)
    .where('environment', '=', target.environment)
    .where('template_id', '=', template.id)
    .where('id', '!=', target.id)
    .where('purged_at', 'is', null)
    .limit(1)
    .execute()
  if (others.length > 0) return null
  const documents = (JSON.parse(template.documents) as Array<Record<string, unknown>>).map((d, i) => ({
    ...d,
    name: `document-${i + 1}.pdf`,
  }))
  await tx
    .updateTable('templates')
    .set({
      name: 'Purged',
      external_id: null,
      metadata: '{}',
      fields: '[]',
      documents: JSON.stringify(documents),
    })
    .where('id', '=', template.id)
    .execute()
  return template.id
}

/** Whether a legal hold in force names the submission. */
export async function isHeld(db: Executor, submissionId: string): Promise<boolean> {
  const row = await db
    .selectFrom('legal_hold_submissions')
    .innerJoin('legal_holds', 'legal_holds.id', 'legal_hold_submissions.hold_id')
    .select('legal_holds.id')
    .where('legal_hold_submissions.submission_id', '=', submissionId)
    .where('legal_holds.released_at', 'is', null)
    .limit(1)
    .executeTakeFirst()
  return row !== undefined
}
