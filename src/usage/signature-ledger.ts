// The signature ledger (docs/usage.md#what-counts): one row per submitter that became
// `signed` or `pre_signed`, written by the caller in the transaction of that move. The unique key on
// submitter_id is what makes a signature count once: a second row for a submitter fails the
// transaction instead of being skipped, so a bug could never silently bill twice.
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

/**
 * Slots per account, environment and day in the daily rollup: a signature adds to the one its
 * submitter id picks, so that signatures of one account committing at once seldom queue on one
 * row's lock (PostgreSQL; SQLite writes one at a time anyway). Reads sum the slots.
 */
export const ROLLUP_SLOTS = 8

/** The slot of a submitter: its random id's last character, spread over the slots. */
export function rollupSlot(submitterId: string): number {
  return submitterId.charCodeAt(submitterId.length - 1) % ROLLUP_SLOTS
}

/**
 * Records signatures in the caller's transaction (the move's own): their ledger rows, then the day's
 * count in the rollup. The ledger's unique key fails the whole transaction on a second row for a
 * submitter, so the rollup can never count what the ledger does not hold.
 */
export async function recordSignatures(
  tx: Tx,
  submitters: readonly Signer[],
  kind: SignatureKind,
  at: string,
): Promise<void> {
  const [first] = submitters
  if (!first) return
  await tx
    .insertInto('signatures')
    .values(submitters.map((s) => ledgerRow(s, kind, at)))
    .execute()
  // One move's signers share its account, environment and instant: one row of the rollup.
  await tx
    .insertInto('signature_days')
    .values({
      account_id: first.account_id,
      environment: first.environment,
      day: at.slice(0, 10),
      slot: rollupSlot(first.id),
      signatures: submitters.length,
    })
    .onConflict((oc) =>
      oc.columns(['account_id', 'environment', 'day', 'slot']).doUpdateSet((eb) => ({
        signatures: eb('signature_days.signatures', '+', eb.ref('excluded.signatures')),
      })),
    )
    .execute()
}

/** A half-open range of UTC days, `YYYY-MM-DD`: [from, to). */
export interface DayRange {
  from: string
  to: string
}

/** Signatures per UTC day (`YYYY-MM-DD`) of one account and environment, from the daily rollup. */
export async function signaturesPerDay(
  db: Executor,
  scope: Scope,
  range: DayRange,
): Promise<Array<{ date: string; signatures: number }>> {
  const rows = await db
    .selectFrom('signature_days')
    .select(['day', (eb) => eb.fn.sum<number | string>('signatures').as('signatures')])
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .where('day', '>=', range.from)
    .where('day', '<', range.to)
    .groupBy('day')
    .execute()
  return rows.map((r) => ({ date: r.day, signatures: Number(r.signatures) }))
}

/** Signatures of every account in one environment over a range, for the operator's report. */
export async function signaturesPerAccount(
  db: Executor,
  environment: Environment,
  range: DayRange,
): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('signature_days')
    .select(['account_id', (eb) => eb.fn.sum<number | string>('signatures').as('signatures')])
    .where('environment', '=', environment)
    .where('day', '>=', range.from)
    .where('day', '<', range.to)
    .groupBy('account_id')
    .execute()
  return new Map(rows.map((r) => [r.account_id, Number(r.signatures)]))
}

/**
 * Derives the whole rollup from the ledger, as migration 0016 did for the rows it found: for tools
 * that write ledger rows directly (the benches' and volume tests' seeds), through any driver.
 */
export const REBUILD_SIGNATURE_DAYS_SQL = [
  'delete from signature_days',
  `insert into signature_days (account_id, environment, day, slot, signatures)
   select account_id, environment, substr(signed_at, 1, 10), 0, count(*)
   from signatures
   group by account_id, environment, substr(signed_at, 1, 10)`,
]
