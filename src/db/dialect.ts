// The ONLY place that branches on the database engine.
import BetterSqlite3 from 'better-sqlite3'
import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Kysely,
  PostgresDialect,
  type SelectQueryBuilder,
  type SqliteDatabase,
  SqliteDialect,
  SqliteDriver,
  sql,
} from 'kysely'
import pg from 'pg'
import type { Config } from '../config.ts'
import type { Tables } from './tables.ts'

export type Engine = Config['database']['engine']

/**
 * SQLite transactions start with BEGIN IMMEDIATE: a deferred transaction that reads and then writes
 * fails with SQLITE_BUSY at once when another process (the worker) holds the write lock, whereas an
 * immediate one waits for busy_timeout.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'))
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: ConstructorParameters<typeof SqliteDialect>[0]
  constructor(config: ConstructorParameters<typeof SqliteDialect>[0]) {
    super(config)
    this.#config = config
  }
  override createDriver() {
    return new ImmediateSqliteDriver(this.#config)
  }
}

/**
 * Kysely prepares every query afresh; preparing cost more than running the query on the hot path.
 * The service's SQL comes from a small set of query shapes, so prepared statements are kept by
 * their text (bounded). Kysely uses one connection at a time, so no statement is used twice at once.
 */
function withStatementCache(db: BetterSqlite3.Database): SqliteDatabase {
  const statements = new Map<string, BetterSqlite3.Statement>()
  return {
    close: () => db.close(),
    prepare(text: string) {
      let statement = statements.get(text)
      if (!statement) {
        statement = db.prepare(text)
        if (statements.size >= 1000) statements.delete(statements.keys().next().value!)
        statements.set(text, statement)
      }
      return statement
    },
  }
}

function sqliteDialect(path: string): Dialect {
  return new ImmediateSqliteDialect({
    database: async () => {
      const db = new BetterSqlite3(path)
      db.pragma('journal_mode = WAL')
      db.pragma('synchronous = NORMAL')
      db.pragma('busy_timeout = 5000')
      db.pragma('foreign_keys = ON')
      return withStatementCache(db)
    },
  })
}

/** A schema other than the default is chosen in the URL: `?options=-c%20search_path%3Dparaph`. */
function postgresDialect(url: string): Dialect {
  return new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 10 }) })
}

export function createDialect(database: Config['database']): Dialect {
  return database.engine === 'sqlite' ? sqliteDialect(database.path) : postgresDialect(database.url)
}

/** Job claims: PostgreSQL lets several workers skip each other's locked rows; SQLite has one writer. */
// biome-ignore lint/suspicious/noExplicitAny: generic over any select query
export function lockForClaim<Q extends SelectQueryBuilder<any, any, any>>(engine: Engine, query: Q): Q {
  return engine === 'postgres' ? (query.forUpdate().skipLocked() as Q) : query
}

/** Error raised by a unique-constraint violation, on either engine. */
export function isUniqueViolation(engine: Engine, error: unknown): boolean {
  const e = error as { code?: string }
  return engine === 'postgres'
    ? e.code === '23505'
    : e.code === 'SQLITE_CONSTRAINT_UNIQUE' || e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
}

/**
 * The schema the migration bookkeeping tables belong in. On PostgreSQL it must be named: Kysely
 * otherwise finds a `kysely_migration` table of any schema of the database and skips creating its own.
 */
export async function currentSchema(db: Kysely<Tables>, engine: Engine): Promise<string | undefined> {
  if (engine === 'sqlite') return undefined
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db)
  return rows[0]?.schema
}
