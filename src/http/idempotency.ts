// docs/api.md#idempotency and docs/security.md#idempotency: a reusable layer for routes marked
// `idempotent`. The claim is one arbitrated INSERT … ON CONFLICT; the stored response commits in
// the handler's own transaction; a failed request releases its claim so a retry runs again.
//
// A claim is a short lease renewed while its request runs: when the process that holds
// it dies (SIGKILL, a crash, a lost machine) nobody renews it, and the key is free again within
// CLAIM_LEASE_MS. Until then a retry gets 409 idempotency_key_in_use with Retry-After. A request
// that outlives its lease without renewing (an event loop stalled for seconds) cannot create twice:
// its response is stored under its claim token in the transaction that creates, so if another
// request took the key over, that transaction rolls back.
import type { FastifyBaseLogger } from 'fastify'
import type { Executor, Scope, Tx } from '../db/tables.ts'
import { ApiError } from '../errors.ts'
import { definePeriodicTask } from '../jobs/define-periodic-task.ts'
import { type Clock, toIso } from '../lib/clock.ts'
import { canonicalDigest } from '../lib/crypto.ts'
import { randomBase62 } from '../lib/ids.ts'

const KEY_PATTERN = /^[A-Za-z0-9_\-+.:=]{1,255}$/
export const REPLAY_WINDOW_MS = 24 * 60 * 60 * 1000
/** A claim not renewed for this long is taken to have died with its process; its key is free again. */
export const CLAIM_LEASE_MS = 6_000
/** How often a running request renews its claim's lease: three chances before the lease lapses. */
export const CLAIM_RENEW_MS = 2_000

export function readIdempotencyKey(header: string | string[] | undefined): string {
  if (header === undefined || header === '') {
    throw new ApiError(
      'idempotency_key_required',
      'This route needs an Idempotency-Key header (1-255 letters, digits or _ - + . : =); a fresh UUID v4 is best.',
    )
  }
  if (Array.isArray(header) || !KEY_PATTERN.test(header)) {
    throw new ApiError(
      'idempotency_key_required',
      'Malformed Idempotency-Key: use 1-255 letters, digits or _ - + . : = (a UUID v4 fits).',
    )
  }
  return header
}

/** SHA-256 of the canonical JSON: whitespace and key order are not "a different body". */
export function fingerprint(body: unknown): string {
  return canonicalDigest(body ?? null)
}

export interface Claim extends Scope {
  route: string
  key: string
  token: string
}

export type ClaimOutcome =
  | { kind: 'claimed'; claim: Claim }
  | { kind: 'replay'; status: number; body: string }

export async function claimIdempotencyKey(
  db: Executor,
  clock: Clock,
  input: Scope & { route: string; key: string; fingerprint: string },
): Promise<ClaimOutcome> {
  const now = clock.now()
  const token = randomBase62(16)
  const fresh = {
    fingerprint: input.fingerprint,
    state: 'in_flight' as const,
    claim_token: token,
    locked_until: toIso(new Date(now.getTime() + CLAIM_LEASE_MS)),
    response_status: null,
    response_body: null,
    created_at: toIso(now),
    expires_at: toIso(new Date(now.getTime() + REPLAY_WINDOW_MS)),
  }
  const result = await db
    .insertInto('idempotency_keys')
    .values({
      account_id: input.accountId,
      environment: input.environment,
      route: input.route,
      key: input.key,
      ...fresh,
    })
    .onConflict((oc) =>
      oc
        .columns(['account_id', 'environment', 'route', 'key'])
        .doUpdateSet(fresh)
        // An expired record, or a claim whose request died, may be taken over.
        .where((eb) =>
          eb.or([
            eb('idempotency_keys.expires_at', '<=', toIso(now)),
            eb.and([
              eb('idempotency_keys.state', '=', 'in_flight'),
              eb('idempotency_keys.locked_until', '<=', toIso(now)),
            ]),
          ]),
        ),
    )
    .executeTakeFirst()
  const claim: Claim = { ...input, token }
  if (Number(result.numInsertedOrUpdatedRows ?? 0) === 1) return { kind: 'claimed', claim }

  const existing = await db
    .selectFrom('idempotency_keys')
    .select(['state', 'fingerprint', 'response_status', 'response_body'])
    .where('account_id', '=', input.accountId)
    .where('environment', '=', input.environment)
    .where('route', '=', input.route)
    .where('key', '=', input.key)
    .executeTakeFirst()
  // Gone between the two statements (released by a failing first request): claim it now.
  if (!existing) return claimIdempotencyKey(db, clock, input)
  if (existing.state === 'in_flight') {
    throw new ApiError(
      'idempotency_key_in_use',
      'A request with this Idempotency-Key is still being processed; retry shortly with the same key.',
      { 'retry-after': '1' },
    )
  }
  if (existing.fingerprint !== input.fingerprint) {
    throw new ApiError(
      'idempotency_key_reused_with_different_body',
      'This Idempotency-Key was already used with a different body on this route; use a new key for a new request.',
    )
  }
  return { kind: 'replay', status: existing.response_status ?? 200, body: existing.response_body ?? '' }
}

/** The key's row, as long as this claim still holds it (the token fences a takeover). */
function heldBy(claim: Claim) {
  return {
    account_id: claim.accountId,
    environment: claim.environment,
    route: claim.route,
    key: claim.key,
    claim_token: claim.token,
  }
}

/**
 * Keeps the claim's lease from lapsing while its request runs, by renewing it every CLAIM_RENEW_MS
 * (only requests that run longer than that write anything). Returns the function that stops it.
 * A renewal that fails (the database away) is not retried: the request itself then fails or its
 * completion finds its claim taken over, and the client retries with the same key.
 */
export function holdClaim(db: Executor, clock: Clock, claim: Claim): () => void {
  const timer = setInterval(() => {
    db.updateTable('idempotency_keys')
      .set({ locked_until: toIso(new Date(clock.epochMs() + CLAIM_LEASE_MS)) })
      .where((eb) => eb.and({ ...heldBy(claim), state: 'in_flight' }))
      .execute()
      .catch(() => {})
  }, CLAIM_RENEW_MS)
  timer.unref()
  return () => clearInterval(timer)
}

/** Stores the response inside the transaction that created what it describes. */
export async function completeIdempotencyKey(
  tx: Tx,
  claim: Claim,
  status: number,
  body: string,
): Promise<void> {
  const result = await tx
    .updateTable('idempotency_keys')
    .set({ state: 'completed', response_status: status, response_body: body })
    .where((eb) => eb.and(heldBy(claim)))
    .executeTakeFirst()
  // Our lease lapsed and another request took the key over: roll back rather than create twice.
  if (Number(result.numUpdatedRows) !== 1) {
    throw new ApiError('idempotency_key_in_use', 'This Idempotency-Key was taken over by a newer request.', {
      'retry-after': '1',
    })
  }
}

/** Frees the key after a failed request (nothing was created), so the client's retry runs again. */
export async function releaseIdempotencyKey(db: Executor, claim: Claim): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where((eb) => eb.and({ ...heldBy(claim), state: 'in_flight' }))
    .execute()
}

/** Housekeeping: records past their 24 h window. Returns how many were removed. */
export async function purgeExpiredIdempotencyKeys(db: Executor, clock: Clock): Promise<number> {
  const result = await db
    .deleteFrom('idempotency_keys')
    .where('expires_at', '<=', toIso(clock.now()))
    .executeTakeFirst()
  return Number(result.numDeletedRows)
}

export const purgeIdempotencyKeysTask = definePeriodicTask({
  name: 'idempotency_keys.purge',
  everyMs: 10 * 60 * 1000,
  run: async (deps: { db: Executor; clock: Clock; logger: FastifyBaseLogger }) => {
    const purged = await purgeExpiredIdempotencyKeys(deps.db, deps.clock)
    if (purged > 0) deps.logger.info({ purged }, 'expired idempotency keys purged')
  },
})
