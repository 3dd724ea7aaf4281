// The signature ledger (issue #22 item 1, operations.md §6): one row per submitter that became
// `signed` or `pre_signed`, written by the caller in the transaction of that move. The unique key on
// submitter_id is what makes a signature count once: a second row for a submitter fails the
// transaction instead of being skipped, so a bug could never silently bill twice.
import { sql } from 'kysely'
import type { Environment, Executor, Scope, SignaturesTable, SubmittersTable, Tx } from '../db/tables.ts'

export type SignatureKind = SignaturesTable['kind']

type Signer = Pick<SubmittersTable, 'id' | 'account_id' | 'environment' | 'submission_id'>

/** The ledger row of a submitter: its id derives from the submitter's, one per submitter. */
export function ledgerRow(submitter: Signer, kind: SignatureKind, at: string): SignaturesTable {
  return {
    id: `sig_${submitter.id.slice('sbm_'.length)}`,
    account_id: submitter.account_id,
    environment: submitter.environment,
    submitter_id: submitter.id,
    submission_id: submitter.submission_id,
    kind,
    signed_at: at,
  }
}

/** Records signatures in the caller's transaction (the move's own). */
export async function recordSignatures(
  tx: Tx,
  submitters: readonly Signer[],
  kind: SignatureKind,
  at: string,
): Promise<void> {
  if (submitters.length === 0) return
  await tx
    .insertInto('signatures')
    .values(submitters.map((s) => ledgerRow(s, kind, at)))
    .execute()
}

/** A half-open range of ISO timestamps: [from, to). */
export interface TimeRange {
  from: string
  to: string
}

/** Signatures per UTC day (`YYYY-MM-DD`) of one account and environment, read from the index alone. */
export async function signaturesPerDay(
  db: Executor,
  scope: Scope,
  range: TimeRange,
): Promise<Array<{ date: string; signatures: number }>> {
  const day = sql<string>`substr(signed_at, 1, 10)`
  const rows = await db
    .selectFrom('signatures')
    .select([day.as('date'), (eb) => eb.fn.countAll<number | string>().as('signatures')])
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .where('signed_at', '>=', range.from)
    .where('signed_at', '<', range.to)
    .groupBy(day)
    .execute()
  return rows.map((r) => ({ date: r.date, signatures: Number(r.signatures) }))
}

/** Signatures of every account in one environment over a range, for the operator's report. */
export async function signaturesPerAccount(
  db: Executor,
  environment: Environment,
  range: TimeRange,
): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('signatures')
    .select(['account_id', (eb) => eb.fn.countAll<number | string>().as('signatures')])
    .where('environment', '=', environment)
    .where('signed_at', '>=', range.from)
    .where('signed_at', '<', range.to)
    .groupBy('account_id')
    .execute()
  return new Map(rows.map((r) => [r.account_id, Number(r.signatures)]))
}
