import { Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely'
import type { Config } from '../config.ts'
import {
  type ConnectionEvents,
  createDialect,
  currentSchema,
  type DirectReader,
  type Engine,
} from './dialect.ts'
import * as foundation from './migrations/0001-foundation.ts'
import * as documents from './migrations/0002-documents.ts'
import * as signing from './migrations/0003-signing.ts'
import * as email2fa from './migrations/0004-email-2fa.ts'
import * as webhooks from './migrations/0005-webhooks.ts'
import * as emailCodeSends from './migrations/0006-email-code-sends.ts'
import * as signerLanguage from './migrations/0007-signer-language.ts'
import * as signatureLedger from './migrations/0008-signature-ledger.ts'
import * as requestLogs from './migrations/0009-request-logs.ts'
import * as keyActivity from './migrations/0010-key-activity.ts'
import * as requestLogBatches from './migrations/0011-request-log-batches.ts'
import * as consoleTables from './migrations/0012-console.ts'
import * as templateDrafts from './migrations/0013-template-drafts.ts'
import * as signingRequestResends from './migrations/0014-signing-request-resends.ts'
import * as listOrderIndexes from './migrations/0015-list-order-indexes.ts'
import * as signatureDays from './migrations/0016-signature-days.ts'
import * as jobLeaseIndex from './migrations/0017-job-lease-index.ts'
import * as signingProgress from './migrations/0018-signing-progress.ts'
import * as testDeliveriesKeyNames from './migrations/0019-test-deliveries-key-names.ts'
import * as templateDraftState from './migrations/0020-template-draft-state.ts'
import * as submissionPreview from './migrations/0021-submission-preview.ts'
import * as reminders from './migrations/0022-reminders.ts'
import * as emailKeys from './migrations/0023-email-keys.ts'
import * as listSkipsPreviews from './migrations/0024-list-skips-previews.ts'
import * as signerGroups from './migrations/0025-signer-groups.ts'
import * as bulkSends from './migrations/0026-bulk-sends.ts'
import * as personalData from './migrations/0027-personal-data.ts'
import * as purgedValues from './migrations/0028-purged-values.ts'
import type { Db, Executor } from './tables.ts'

/** Every migration, in order. Listed here rather than read from disk so nothing depends on the cwd. */
const MIGRATIONS: Record<string, Migration> = {
  '0001-foundation': foundation,
  '0002-documents': documents,
  '0003-signing': signing,
  '0004-email-2fa': email2fa,
  '0005-webhooks': webhooks,
  '0006-email-code-sends': emailCodeSends,
  '0007-signer-language': signerLanguage,
  '0008-signature-ledger': signatureLedger,
  '0009-request-logs': requestLogs,
  '0010-key-activity': keyActivity,
  '0011-request-log-batches': requestLogBatches,
  '0012-console': consoleTables,
  '0013-template-drafts': templateDrafts,
  '0014-signing-request-resends': signingRequestResends,
  '0015-list-order-indexes': listOrderIndexes,
  '0016-signature-days': signatureDays,
  '0017-job-lease-index': jobLeaseIndex,
  '0018-signing-progress': signingProgress,
  '0019-test-deliveries-key-names': testDeliveriesKeyNames,
  '0020-template-draft-state': templateDraftState,
  '0021-submission-preview': submissionPreview,
  '0022-reminders': reminders,
  '0023-email-keys': emailKeys,
  '0024-list-skips-previews': listSkipsPreviews,
  '0025-signer-groups': signerGroups,
  '0026-bulk-sends': bulkSends,
  '0027-personal-data': personalData,
  '0028-purged-values': purgedValues,
}

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS }

export interface Database {
  db: Db
  engine: Engine
  close(): Promise<void>
}

const directReaders = new WeakMap<Db, DirectReader>()

/**
 * Opens the pool (PostgreSQL) or the file (SQLite). A connection the server closes is reported to
 * `events` and never kills the process; without `events` (tools, tests) it is dropped silently.
 */
export function openDatabase(
  database: Config['database'],
  events: ConnectionEvents = { onConnectionLost: () => {} },
): Database {
  const { dialect, direct } = createDialect(database, events)
  const db = new Kysely<import('./tables.ts').Tables>({ dialect })
  directReaders.set(db, direct)
  return { db, engine: database.engine, close: () => db.destroy() }
}

/** The engine's own client for hot reads on `db` (db/prepared.ts), when `db` was opened here. */
export function directReaderOf(db: Executor): DirectReader | undefined {
  return db.isTransaction ? undefined : directReaders.get(db as Db)
}

/**
 * Applies pending migrations; returns the names applied. Safe to run from several processes at once.
 * `upTo` stops after the migration of that name (tests of a migration's backfill).
 */
export async function migrate(db: Db, engine: Engine, upTo?: string): Promise<string[]> {
  const migrator = new Migrator({ db, provider, migrationTableSchema: await currentSchema(db, engine) })
  const { error, results } = await (upTo ? migrator.migrateTo(upTo) : migrator.migrateToLatest())
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName
    throw new Error(`Migration ${failed ?? ''} failed: ${(error as Error).message}`)
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName)
}

/** Readiness: the database answers a trivial query. */
export async function ping(db: Db): Promise<void> {
  await sql`select 1`.execute(db)
}
