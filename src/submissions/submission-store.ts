// Submissions and submitters, scoped in the WHERE. A submitter found by its signing slug is the one
// exception: the slug is itself the credential.
import { page } from '../db/keyset.ts'
import { prepared } from '../db/prepared.ts'
import type {
  Executor,
  Scope,
  SubmissionStatus,
  SubmissionsTable,
  SubmitterStatus,
  SubmittersTable,
} from '../db/tables.ts'
import type { Position } from '../http/pagination.ts'

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
  if (filters.status) query = query.where('status', '=', filters.status)
  if (filters.template_id) query = query.where('template_id', '=', filters.template_id)
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
  if (filters.email) query = query.where('email', '=', filters.email.toLowerCase())
  return page(query, after, limit).execute()
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
