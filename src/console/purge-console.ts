// The console's housekeeping (docs/console.md, "Storage"): template drafts past their 24 hours with
// their PDF and page images, sign-in links a day after they expired, ended or expired sessions, and
// sign-in requests older than the limits' 15-minute window. Each table is emptied in batches of at
// most PURGE_BATCH rows, so no statement holds locks for long however much has piled up.
import type { Executor } from '../db/tables.ts'
import type { Deps } from '../deps.ts'
import { definePeriodicTask } from '../jobs/define-periodic-task.ts'
import { type Clock, toIso } from '../lib/clock.ts'
import { PAGE_IMAGE_WIDTHS } from '../signing-page/get-page-image.ts'
import { SESSION_IDLE_MS } from './access/console-session-store.ts'
import { REQUEST_WINDOW_MS } from './access/sign-in-link-store.ts'

export const PURGE_BATCH = 500

/**
 * A used or expired link is kept one more day, so opening it again still says "expired or already
 * used" (410) rather than "unknown" (404) to someone who clicks an old mail.
 */
export const SPENT_LINK_KEPT_MS = 24 * 3600_000

export interface ConsolePurged {
  drafts: number
  links: number
  sessions: number
  requests: number
}

/** Runs `batch` until it deletes fewer than a full batch; the total deleted. */
async function inBatches(batch: (limit: number) => Promise<number>, limit: number): Promise<number> {
  let total = 0
  for (;;) {
    const deleted = await batch(limit)
    total += deleted
    if (deleted < limit) return total
  }
}

/** The page images drafts/get-template-draft-page.ts keeps beside a draft's PDF, whether rendered or not. */
function draftBlobKeys(blobKey: string, pageCount: number): string[] {
  const pages = Array.from({ length: pageCount }, (_, i) => i + 1)
  return [blobKey, ...pages.flatMap((p) => PAGE_IMAGE_WIDTHS.map((w) => `${blobKey}.pages/${p}-${w}.jpg`))]
}

async function purgeDrafts(deps: Pick<Deps, 'db' | 'blobs'>, now: string, limit: number): Promise<number> {
  const drafts = await deps.db
    .selectFrom('template_drafts')
    .select(['id', 'blob_key', 'pages'])
    .where('expires_at', '<=', now)
    .orderBy('expires_at')
    .limit(limit)
    .execute()
  if (drafts.length === 0) return 0
  // The blobs go first: should one delete fail, the row stays and the next run tries again, so no
  // blob is ever left without the row that names it.
  for (const draft of drafts) {
    const pageCount = (JSON.parse(draft.pages) as unknown[]).length
    await Promise.all(draftBlobKeys(draft.blob_key, pageCount).map((key) => deps.blobs.delete(key)))
  }
  const ids = drafts.map((d) => d.id)
  const result = await deps.db.deleteFrom('template_drafts').where('id', 'in', ids).executeTakeFirst()
  return Number(result.numDeletedRows)
}

async function purgeLinks(db: Executor, before: string, limit: number): Promise<number> {
  const hashes = await db
    .selectFrom('console_sign_in_links')
    .select('token_hash')
    .where('expires_at', '<=', before)
    .limit(limit)
    .execute()
  if (hashes.length === 0) return 0
  const result = await db
    .deleteFrom('console_sign_in_links')
    .where(
      'token_hash',
      'in',
      hashes.map((h) => h.token_hash),
    )
    .executeTakeFirst()
  return Number(result.numDeletedRows)
}

async function purgeSessions(db: Executor, now: string, idleSince: string, limit: number): Promise<number> {
  const ids = await db
    .selectFrom('console_sessions')
    .select('id')
    .where((eb) =>
      eb.or([
        eb('ended_at', 'is not', null),
        eb('expires_at', '<=', now),
        eb('last_seen_at', '<=', idleSince),
      ]),
    )
    .limit(limit)
    .execute()
  if (ids.length === 0) return 0
  const result = await db
    .deleteFrom('console_sessions')
    .where(
      'id',
      'in',
      ids.map((s) => s.id),
    )
    .executeTakeFirst()
  return Number(result.numDeletedRows)
}

/**
 * The table has no key: a batch is the oldest `limit` rows by time, deleted up to the newest of
 * them (rows sharing that instant go too, so a batch may pass `limit` by those few).
 */
async function purgeRequests(db: Executor, before: string, limit: number): Promise<number> {
  const oldest = await db
    .selectFrom('console_sign_in_requests')
    .select('created_at')
    .where('created_at', '<=', before)
    .orderBy('created_at')
    .limit(limit)
    .execute()
  if (oldest.length === 0) return 0
  const result = await db
    .deleteFrom('console_sign_in_requests')
    .where('created_at', '<=', oldest.at(-1)!.created_at)
    .executeTakeFirst()
  return Number(result.numDeletedRows)
}

/** Deletes what the console no longer needs; safe to run on several workers at once. */
export async function purgeConsole(
  deps: Pick<Deps, 'db' | 'blobs'> & { clock: Clock },
  limit = PURGE_BATCH,
): Promise<ConsolePurged> {
  const nowMs = deps.clock.epochMs()
  const now = toIso(new Date(nowMs))
  const ago = (ms: number) => toIso(new Date(nowMs - ms))
  return {
    drafts: await inBatches((n) => purgeDrafts(deps, now, n), limit),
    links: await inBatches((n) => purgeLinks(deps.db, ago(SPENT_LINK_KEPT_MS), n), limit),
    sessions: await inBatches((n) => purgeSessions(deps.db, now, ago(SESSION_IDLE_MS), n), limit),
    requests: await inBatches((n) => purgeRequests(deps.db, ago(REQUEST_WINDOW_MS), n), limit),
  }
}

/** The console's spent drafts (with their blobs), links, sessions and sign-in requests. */
export const purgeConsoleTask = definePeriodicTask({
  name: 'console.purge',
  everyMs: 10 * 60 * 1000,
  run: async (deps: Deps) => {
    const purged = await purgeConsole(deps)
    if (Object.values(purged).some((n) => n > 0)) deps.logger.info(purged, 'console rows purged')
  },
})
