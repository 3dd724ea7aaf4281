// docs/api.md#bulk-send: the bulk_sends and bulk_send_rows tables. Every read and write of a job
// takes the scope into its WHERE; a row is moved out of `pending` only by a guarded UPDATE, so two
// writers can never both take it.

import { type Position, page } from '../db/keyset.ts'
import type {
  BulkSendRowStatus,
  BulkSendRowsTable,
  BulkSendsTable,
  Executor,
  Scope,
  Tx,
} from '../db/tables.ts'

/** Rows are inserted this many per statement (SQLite binds at most 32 766 parameters). */
const INSERT_CHUNK = 500

export async function insertBulkSend(tx: Tx, job: BulkSendsTable, rows: BulkSendRowsTable[]): Promise<void> {
  await tx.insertInto('bulk_sends').values(job).execute()
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    await tx
      .insertInto('bulk_send_rows')
      .values(rows.slice(i, i + INSERT_CHUNK))
      .execute()
  }
}

export async function findBulkSend(db: Executor, scope: Scope, id: string) {
  return db
    .selectFrom('bulk_sends')
    .selectAll()
    .where('id', '=', id)
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .executeTakeFirst()
}

/** Newest first, keyset on (created_at, id). */
export async function listBulkSends(db: Executor, scope: Scope, after: Position | undefined, limit: number) {
  const query = db
    .selectFrom('bulk_sends')
    .selectAll()
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
  return page(query, after, limit).execute()
}

/** The rows of a job (already found in scope) in row order, after row `afterRow`. */
export async function listRows(
  db: Executor,
  bulkSendId: string,
  status: BulkSendRowStatus | undefined,
  afterRow: number,
  limit: number,
) {
  let query = db
    .selectFrom('bulk_send_rows')
    .selectAll()
    .where('bulk_send_id', '=', bulkSendId)
    .where('row', '>', afterRow)
  if (status) query = query.where('status', '=', status)
  return query.orderBy('row').limit(limit).execute()
}

/** The next pending rows of a job, in row order. */
export async function pendingRows(tx: Tx, bulkSendId: string, limit: number) {
  return tx
    .selectFrom('bulk_send_rows')
    .selectAll()
    .where('bulk_send_id', '=', bulkSendId)
    .where('status', '=', 'pending')
    .orderBy('row')
    .limit(limit)
    .execute()
}

/**
 * Takes a pending row to `to`, or does nothing when another writer took it first (a second worker,
 * a cancel): true only for the writer that moved it.
 */
export async function settleRow(
  tx: Tx,
  bulkSendId: string,
  row: number,
  to: { status: BulkSendRowStatus; submission_id?: string; errors?: string },
  at: string,
): Promise<boolean> {
  const result = await tx
    .updateTable('bulk_send_rows')
    .set({
      status: to.status,
      ...(to.submission_id !== undefined && { submission_id: to.submission_id }),
      ...(to.errors !== undefined && { errors: to.errors }),
      updated_at: at,
    })
    .where('bulk_send_id', '=', bulkSendId)
    .where('row', '=', row)
    .where('status', '=', 'pending')
    .executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}

/** Cancels every pending row of a job; returns how many. */
export async function cancelPendingRows(tx: Tx, bulkSendId: string, at: string): Promise<number> {
  const result = await tx
    .updateTable('bulk_send_rows')
    .set({ status: 'cancelled', updated_at: at })
    .where('bulk_send_id', '=', bulkSendId)
    .where('status', '=', 'pending')
    .executeTakeFirst()
  return Number(result.numUpdatedRows)
}

/**
 * Locks an active job for the caller's transaction (an UPDATE takes the row's lock on both
 * engines) and marks it running; undefined when it has ended (completed or cancelled). Every writer
 * of a job's rows goes through this first, so they take the job's lock before the rows'.
 */
export async function lockActiveJob(tx: Tx, id: string, at: string, status: 'running' | 'keep' = 'running') {
  const result = await tx
    .updateTable('bulk_sends')
    .set(status === 'running' ? { status: 'running', updated_at: at } : { updated_at: at })
    .where('id', '=', id)
    .where('status', 'in', ['queued', 'running'])
    .executeTakeFirst()
  if (Number(result.numUpdatedRows) !== 1) return undefined
  return tx.selectFrom('bulk_sends').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
}

export async function addCounts(
  tx: Tx,
  id: string,
  counts: { created?: number; failed?: number; cancelled?: number },
): Promise<void> {
  await tx
    .updateTable('bulk_sends')
    .set((eb) => ({
      created_count: eb('created_count', '+', counts.created ?? 0),
      failed_count: eb('failed_count', '+', counts.failed ?? 0),
      cancelled_count: eb('cancelled_count', '+', counts.cancelled ?? 0),
    }))
    .where('id', '=', id)
    .execute()
}

export async function endJob(
  tx: Tx,
  id: string,
  to: { status: BulkSendsTable['status']; at: string },
): Promise<BulkSendsTable> {
  await tx
    .updateTable('bulk_sends')
    .set({
      status: to.status,
      updated_at: to.at,
      ...(to.status === 'cancelled' ? { cancelled_at: to.at } : { completed_at: to.at }),
    })
    .where('id', '=', id)
    .execute()
  return tx.selectFrom('bulk_sends').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
}
