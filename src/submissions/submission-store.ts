// Submissions and submitters, scoped in the WHERE. A submitter found by its signing slug is the one
// exception: the slug is itself the credential.
import { sql } from 'kysely'
import { type Position, page } from '../db/keyset.ts'
import { prepared } from '../db/prepared.ts'
import type {
  Executor,
  Scope,
  SubmissionStatus,
  SubmissionsTable,
  SubmitterStatus,
  SubmittersTable,
  Tx,
} from '../db/tables.ts'
import { emailKey } from '../lib/email-address.ts'

export async function insertSubmission(db: Executor, row: SubmissionsTable): Promise<void> {
  await db.insertInto('submissions').values(row).execute()
}

export async function insertSubmitters(db: Executor, rows: SubmittersTable[]): Promise<void> {
  if (rows.length > 0) await db.insertInto('submitters').values(rows).execute()
}

const selectSubmission = prepared((db, id: string, accountId: string, environment: string) =>
  db
    .selectFrom('submissions')
    .selectAll()
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .where('environment', '=', environment as Scope['environment']),
)

export async function findSubmission(db: Executor, scope: Scope, id: string) {
  return (await selectSubmission(db, id, scope.accountId, scope.environment))[0]
}

/** What a submission's answer shows of each submitter: everything but the filled-in `values`. */
export const SUBMITTER_SUMMARY_COLUMNS = [
  'id',
  'account_id',
  'environment',
  'submission_id',
  'position',
  'role',
  'email',
  'name',
  'phone',
  'external_id',
  'metadata',
  'status',
  'send_email',
  'require_email_2fa',
  'signing_slug',
  'created_at',
  'updated_at',
  'opened_at',
  'signed_at',
  'declined_at',
  'decline_reason',
  'reminders_sent',
  'next_reminder_at',
  'grouped',
] as const satisfies ReadonlyArray<keyof SubmittersTable>
export type SubmitterSummaryRow = Pick<SubmittersTable, (typeof SUBMITTER_SUMMARY_COLUMNS)[number]>

type Prefixed<Row> = { [K in keyof Row & string as `t_${K}`]: Row[K] | null }
const PREFIXED_COLUMNS = SUBMITTER_SUMMARY_COLUMNS.map((c) => `t_${c}` as const)

// One query, so PostgreSQL answers a GET in one round trip: the submission's columns, then each
// submitter's prefixed `t_`, one row per submitter in signing order.
const selectSubmissionTree = prepared((db, id: string, accountId: string, environment: string) =>
  db
    .selectFrom('submissions as s')
    .leftJoin('submitters as t', (join) =>
      join
        .onRef('t.account_id', '=', 's.account_id')
        .onRef('t.environment', '=', 's.environment')
        .onRef('t.submission_id', '=', 's.id'),
    )
    .selectAll('s')
    .select(SUBMITTER_SUMMARY_COLUMNS.map((c) => sql.ref(`t.${c}`).as(`t_${c}`)))
    .where('s.id', '=', id)
    .where('s.account_id', '=', accountId)
    .where('s.environment', '=', environment as Scope['environment'])
    .orderBy('t.position')
    .$castTo<SubmissionTreeRow>(),
)

type SubmissionTreeRow = SubmissionsTable & Prefixed<SubmitterSummaryRow>

/** The submission's own columns of a tree row: every column but the `t_` ones, listed once. */
let submissionColumns: Array<keyof SubmissionsTable> | undefined

function splitTree(rows: SubmissionTreeRow[]) {
  const first = rows[0]!
  submissionColumns ??= Object.keys(first).filter((key) => !key.startsWith('t_')) as Array<
    keyof SubmissionsTable
  >
  const submission: Record<string, unknown> = {}
  for (const column of submissionColumns) submission[column] = first[column]
  const submitters: SubmitterSummaryRow[] = []
  for (const row of rows) {
    if (row.t_id === null) continue
    const submitter: Record<string, unknown> = {}
    for (let i = 0; i < SUBMITTER_SUMMARY_COLUMNS.length; i++)
      submitter[SUBMITTER_SUMMARY_COLUMNS[i]!] = row[PREFIXED_COLUMNS[i]!]
    submitters.push(submitter as SubmitterSummaryRow)
  }
  return { submission: submission as unknown as SubmissionsTable, submitters }
}

/** The submission with its submitters in signing order, in one read; undefined when out of scope. */
export async function findSubmissionWithSubmitters(db: Executor, scope: Scope, id: string) {
  const rows = await selectSubmissionTree(db, id, scope.accountId, scope.environment)
  return rows.length === 0 ? undefined : splitTree(rows)
}

const selectSubmitters = prepared((db, submissionId: string, accountId: string, environment: string) =>
  db
    .selectFrom('submitters')
    .selectAll()
    .where('submission_id', '=', submissionId)
    .where('account_id', '=', accountId)
    .where('environment', '=', environment as Scope['environment'])
    .orderBy('position'),
)

/** The submitters of submissions already found in scope, in signing order. */
export async function submittersOf(db: Executor, scope: Scope, submissionIds: string[]) {
  if (submissionIds.length === 0) return []
  if (submissionIds.length === 1)
    return selectSubmitters(db, submissionIds[0]!, scope.accountId, scope.environment)
  return db
    .selectFrom('submitters')
    .selectAll()
    .where('submission_id', 'in', submissionIds)
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .orderBy('submission_id')
    .orderBy('position')
    .execute()
}

export interface SubmissionFilters {
  status?: SubmissionStatus
  template_id?: string
  bulk_send_id?: string
}

export async function listSubmissions(
  db: Executor,
  scope: Scope,
  filters: SubmissionFilters,
  after: Position | undefined,
  limit: number,
) {
  let query = db
    .selectFrom('submissions')
    .selectAll()
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    // The console editor's previews are no submissions of the sender's (docs/console.md#preview-as-a-signer).
    .where('preview', '=', 0)
  if (filters.status) query = query.where('status', '=', filters.status)
  if (filters.template_id) query = query.where('template_id', '=', filters.template_id)
  if (filters.bulk_send_id) query = query.where('bulk_send_id', '=', filters.bulk_send_id)
  return page(query, after, limit).execute()
}

export async function findSubmitter(db: Executor, scope: Scope, id: string) {
  return db
    .selectFrom('submitters')
    .selectAll()
    .where('id', '=', id)
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .executeTakeFirst()
}

export interface SubmitterFilters {
  status?: SubmitterStatus
  submission_id?: string
  email?: string
}

export async function listSubmitters(
  db: Executor,
  scope: Scope,
  filters: SubmitterFilters,
  after: Position | undefined,
  limit: number,
) {
  let query = db
    .selectFrom('submitters')
    .selectAll()
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
  if (filters.status) query = query.where('status', '=', filters.status)
  if (filters.submission_id) query = query.where('submission_id', '=', filters.submission_id)
  if (!filters.email) return page(query, after, limit).execute()
  // docs/api.md#e-mail-addresses: by the comparison key, so either spelling of a domain finds it;
  // docs/api.md#signer-groups: a signer group is found by any member's address too. Each side is
  // read in list order from its own index, then the two pages are merged.
  const key = emailKey(filters.email)
  const [own, asMember] = await Promise.all([
    page(query.where('email_key', '=', key), after, limit).execute(),
    groupsOfMember(db, scope, key, filters, after, limit),
  ])
  return mergePages(own, asMember, limit)
}

/** The signer groups with a member of this address key, newest first, `limit` after `after`. */
function groupsOfMember(
  db: Executor,
  scope: Scope,
  key: string,
  filters: SubmitterFilters,
  after: Position | undefined,
  limit: number,
) {
  let query = db
    .selectFrom('group_members as m')
    .innerJoin('submitters as s', 's.id', 'm.submitter_id')
    .selectAll('s')
    .where('m.account_id', '=', scope.accountId)
    .where('m.environment', '=', scope.environment)
    .where('m.email_key', '=', key)
    .where('s.account_id', '=', scope.accountId)
    .where('s.environment', '=', scope.environment)
  if (filters.status) query = query.where('s.status', '=', filters.status)
  if (filters.submission_id) query = query.where('m.submission_id', '=', filters.submission_id)
  if (after) {
    query = query.where((eb) =>
      eb(eb.refTuple('m.submitter_created_at', 'm.submitter_id'), '<', eb.tuple(after.createdAt, after.id)),
    )
  }
  return query
    .orderBy('m.submitter_created_at', 'desc')
    .orderBy('m.submitter_id', 'desc')
    .limit(limit)
    .execute()
}

/** Two pages in list order (newest first) as one: each row once, `limit` at most. */
function mergePages<Row extends { id: string; created_at: string }>(
  a: Row[],
  b: Row[],
  limit: number,
): Row[] {
  const byId = new Map([...a, ...b].map((row) => [row.id, row]))
  return [...byId.values()]
    .sort((x, y) =>
      x.created_at === y.created_at ? (x.id < y.id ? 1 : -1) : x.created_at < y.created_at ? 1 : -1,
    )
    .slice(0, limit)
}

/** The signer's credential: a slug unique across accounts. */
export async function findSubmitterBySlug(db: Executor, slug: string) {
  return db.selectFrom('submitters').selectAll().where('signing_slug', '=', slug).executeTakeFirst()
}

/** For a verified embed token: the submitter of that submission. */
export async function findSubmitterById(db: Executor, submitterId: string, submissionId: string) {
  return db
    .selectFrom('submitters')
    .selectAll()
    .where('id', '=', submitterId)
    .where('submission_id', '=', submissionId)
    .executeTakeFirst()
}

/** Unscoped read for the signing page, which reaches the submission through its submitter. */
export async function findSubmissionOfSubmitter(db: Executor, submitter: SubmittersTable) {
  return db
    .selectFrom('submissions')
    .selectAll()
    .where('id', '=', submitter.submission_id)
    .where('account_id', '=', submitter.account_id)
    .where('environment', '=', submitter.environment)
    .executeTakeFirst()
}

/**
 * The submission, locked until the transaction ends: two signers of one submission signing at
 * once are taken one after the other, so the last one sees the other's signature; a finalization
 * and a signer's act never interleave. A no-op UPDATE takes the row lock on PostgreSQL; SQLite
 * transactions already hold the write lock from their start (BEGIN IMMEDIATE).
 */
export async function lockSubmission(
  tx: Tx,
  submission: Pick<SubmissionsTable, 'id' | 'account_id' | 'environment'>,
) {
  return tx
    .updateTable('submissions')
    .set((eb) => ({ updated_at: eb.ref('updated_at') }))
    .where('id', '=', submission.id)
    .where('account_id', '=', submission.account_id)
    .where('environment', '=', submission.environment)
    .returningAll()
    .executeTakeFirstOrThrow()
}

/**
 * A submitter of the scope's with its submission locked (see lockSubmission) and every signer of
 * it as they stand under the lock: what a change to one signer (PATCH, a resend) decides from.
 */
export async function lockSubmitterInScope(tx: Tx, scope: Scope, id: string) {
  const found = await findSubmitter(tx, scope, id)
  if (!found) return undefined
  const submission = await lockSubmissionOfSubmitter(tx, found)
  const everyone = await submittersOf(tx, scope, [submission.id])
  return { submission, everyone, submitter: everyone.find((s) => s.id === found.id) ?? found }
}

/** The submission of a signer's act, locked (see lockSubmission). */
export function lockSubmissionOfSubmitter(tx: Tx, submitter: SubmittersTable) {
  return lockSubmission(tx, {
    id: submitter.submission_id,
    account_id: submitter.account_id,
    environment: submitter.environment,
  })
}

/** For the service's own jobs, which act on a submission named in their payload, in any scope. */
export async function findSubmissionForJob(db: Executor, id: string) {
  return db.selectFrom('submissions').selectAll().where('id', '=', id).executeTakeFirst()
}

/** Why the last attempt at the final PDF failed, shown on the submission while it is retried. */
export async function recordFinalizeError(
  db: Executor,
  submission: Pick<SubmissionsTable, 'id' | 'account_id' | 'environment'>,
  message: string | null,
): Promise<void> {
  await db
    .updateTable('submissions')
    .set({ finalize_error: message })
    .where('id', '=', submission.id)
    .where('account_id', '=', submission.account_id)
    .where('environment', '=', submission.environment)
    .execute()
}
