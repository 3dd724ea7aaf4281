// The ONLY place that branches on the database engine.
import { createHash } from 'node:crypto'
import BetterSqlite3 from 'better-sqlite3'
import {
  CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type Kysely,
  PostgresDialect,
  PostgresIntrospector,
  type SelectQueryBuilder,
  type SqliteDatabase,
  SqliteDialect,
  SqliteDriver,
  sql,
  type TableMetadata,
} from 'kysely'
import pg from 'pg'
import type { Config } from '../config.ts'
import { BoundedMap } from '../lib/bounded-map.ts'
import { createPrivateFileSync } from '../lib/private-files.ts'
import { LIMITS } from '../limits.ts'
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
  const statements = new BoundedMap<string, BetterSqlite3.Statement>()
  return {
    close: () => db.close(),
    prepare(text: string) {
      let statement = statements.get(text)
      if (!statement) {
        statement = db.prepare(text)
        statements.set(text, statement)
      }
      return statement
    },
  }
}

/**
 * Runs a compiled read straight on the engine's client, outside any transaction, without Kysely's
 * connection handling and result plumbing (most of a GET's cost before). Returns undefined when it
 * cannot run now, and the caller goes through Kysely instead.
 */
export interface DirectReader {
  read<Row>(sql: string, parameters: readonly unknown[]): Row[] | Promise<Row[]> | undefined
}

export interface EngineDialect {
  dialect: Dialect
  direct: DirectReader
}

type RowBuilder = (values: unknown[]) => Record<string, unknown>

/**
 * Turns an array row into the object Kysely would have returned, through a function made for these
 * columns so every row gets the same shape (one hidden class, no dictionary-mode objects). The
 * names are the columns of our own compiled SQL, quoted as JSON strings.
 */
function rowBuilder(columns: string[]): RowBuilder {
  const fields = columns.map((name, i) => `${JSON.stringify(name)}: values[${i}]`).join(', ')
  return new Function('values', `return { ${fields} }`) as RowBuilder
}

function sqliteDialect(path: string): EngineDialect {
  let connection: { db: BetterSqlite3.Database; cached: SqliteDatabase } | undefined
  const dialect = new ImmediateSqliteDialect({
    database: async () => {
      // The database (and so its -wal and -shm files, which SQLite makes with the
      // database's mode) is 0600, its folder 0700 when Paraph creates them.
      if (path !== ':memory:') createPrivateFileSync(path)
      const db = new BetterSqlite3(path)
      db.pragma('journal_mode = WAL')
      db.pragma('synchronous = NORMAL')
      db.pragma('busy_timeout = 5000')
      db.pragma('foreign_keys = ON')
      // docs/privacy.md#purge: what a purge deletes or overwrites is zeroed in the file, not left in
      // free pages where a copy of the database file would still hold it.
      db.pragma('secure_delete = ON')
      connection = { db, cached: withStatementCache(db) }
      return connection.cached
    },
  })
  // The one connection, between Kysely's queries: better-sqlite3 is synchronous, so no Kysely query
  // is half-run here. While a transaction is open on it (BEGIN … awaits … COMMIT), a read would see
  // that transaction's uncommitted rows, so it waits its turn in Kysely instead. Rows come back as
  // arrays (raw mode): building objects property by property in C++ cost as much as the query.
  const statements = new BoundedMap<string, { statement: BetterSqlite3.Statement; toRow: RowBuilder }>()
  const direct: DirectReader = {
    read<Row>(text: string, parameters: readonly unknown[]) {
      if (!connection?.db.open || connection.db.inTransaction) return undefined
      let entry = statements.get(text)
      if (!entry) {
        const statement = connection.db.prepare(text).raw(true)
        entry = { statement, toRow: rowBuilder(statement.columns().map((c) => c.name)) }
        statements.set(text, entry)
      }
      return (entry.statement.all(parameters) as unknown[][]).map(entry.toRow) as Row[]
    },
  }
  return { dialect, direct }
}

/**
 * What the migrator asks of PostgreSQL, limited to the current schema. Kysely's own introspector
 * reads every schema of the database and calls `has_schema_privilege` and `pg_get_serial_sequence`
 * by name on each: when another schema is dropped meanwhile (another Paraph, another test, another
 * application sharing the database) the query fails with `schema "…" does not exist` and the
 * migration with it. It also read every column of every schema, which grows with the database.
 * Only the tables' names and schema are returned; the migrator reads nothing else.
 */
class CurrentSchemaIntrospector implements DatabaseIntrospector {
  readonly #db: Kysely<unknown>
  readonly #schemas: PostgresIntrospector
  constructor(db: Kysely<unknown>) {
    this.#db = db
    this.#schemas = new PostgresIntrospector(db)
  }
  getSchemas() {
    return this.#schemas.getSchemas()
  }
  async getTables(): Promise<TableMetadata[]> {
    const { rows } = await sql<{ name: string; schema: string; kind: string }>`
      select c.relname as name, ns.nspname as schema, c.relkind as kind
      from pg_catalog.pg_class c join pg_catalog.pg_namespace ns on ns.oid = c.relnamespace
      where ns.nspname = current_schema() and c.relkind in ('r', 'v', 'p')
      order by c.relname`.execute(this.#db)
    return rows.map((r) => ({ name: r.name, schema: r.schema, isView: r.kind === 'v', columns: [] }))
  }
  async getMetadata() {
    return { tables: await this.getTables() }
  }
}

class CurrentSchemaPostgresDialect extends PostgresDialect {
  // biome-ignore lint/suspicious/noExplicitAny: Kysely's own signature
  override createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new CurrentSchemaIntrospector(db)
  }
}

/** What the engine tells its owner: a connection the server closed (restart, failover, termination). */
export interface ConnectionEvents {
  onConnectionLost(error: Error): void
}

/**
 * A client whose own connect attempt gives up after `LIMITS.dbConnectMs` (while the
 * database is unreachable a request answers 500 `db_error` within a second instead of hanging).
 * The pool's `connectionTimeoutMillis` stays longer: it also bounds the wait for a free pooled
 * client under load, which is not an outage.
 */
class QuickConnectClient extends pg.Client {
  constructor(config: pg.ClientConfig = {}) {
    super({ ...config, connectionTimeoutMillis: LIMITS.dbConnectMs, keepAlive: true })
  }
}

/** A schema other than the default is chosen in the URL: `?options=-c%20search_path%3Dparaph`. */
function postgresDialect(url: string, events: ConnectionEvents): EngineDialect {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    connectionTimeoutMillis: LIMITS.dbPoolWaitMs,
    Client: QuickConnectClient,
  })
  // docs/security.md#surviving-the-database: an idle pooled connection that the server closes is
  // reported on the pool (which has already dropped it); with no listener Node throws and the
  // process dies. A client checked out at that moment (inside a transaction) reports on itself, and
  // the pool listens only to idle ones: every client gets a listener of ours for its whole life. Its
  // query fails (the request answers db_error, the job is retried), and the pool discards it on
  // release because it is no longer queryable; the next query opens a new connection.
  pool.on('error', (error) => events.onConnectionLost(error))
  pool.on('connect', (client) => client.on('error', (error) => events.onConnectionLost(error)))
  // Named statements: each pooled connection parses and plans a hot read once. (A transaction-mode
  // connection pooler such as PgBouncer < 1.21 does not keep them; point DATABASE_URL past it.)
  const statements = new BoundedMap<string, { name: string; toRow?: RowBuilder }>()
  const direct: DirectReader = {
    async read<Row>(text: string, parameters: readonly unknown[]) {
      let entry = statements.get(text)
      if (!entry) {
        entry = { name: `paraph_${createHash('sha256').update(text).digest('hex').slice(0, 24)}` }
        statements.set(text, entry)
      }
      const result = await pool.query<unknown[]>({
        name: entry.name,
        text,
        values: [...parameters],
        rowMode: 'array',
      })
      entry.toRow ??= rowBuilder(result.fields.map((f) => f.name))
      return result.rows.map(entry.toRow) as Row[]
    },
  }
  return { dialect: new CurrentSchemaPostgresDialect({ pool }), direct }
}

export function createDialect(database: Config['database'], events: ConnectionEvents): EngineDialect {
  return database.engine === 'sqlite' ? sqliteDialect(database.path) : postgresDialect(database.url, events)
}

const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
  // PostgreSQL: admin_shutdown, crash_shutdown, cannot_connect_now, too_many_connections.
  '57P01',
  '57P02',
  '57P03',
  '53300',
])

// node-postgres and pg-pool say it in words only.
const UNAVAILABLE_MESSAGES =
  /Connection terminated|connection timeout|timeout exceeded when trying to connect|not queryable|Connection ended/i

/**
 * The database is away or refusing for now (not a bug of ours, not bad input): requests answer 500
 * `db_error`, workers back off and retry. Class 08 is PostgreSQL's connection exceptions.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (error === null || typeof error !== 'object') return false
  const { code, message } = error as { code?: unknown; message?: unknown }
  const text = typeof code === 'string' ? code : ''
  return (
    UNAVAILABLE_CODES.has(text) ||
    text.startsWith('08') ||
    (typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message))
  )
}

/** Job claims: PostgreSQL lets several workers skip each other's locked rows; SQLite has one writer. */
// biome-ignore lint/suspicious/noExplicitAny: generic over any select query
export function lockForClaim<Q extends SelectQueryBuilder<any, any, any>>(engine: Engine, query: Q): Q {
  return engine === 'postgres' ? (query.forUpdate().skipLocked() as Q) : query
}

/**
 * Rows a transaction reads to decide a write (the last admin of an account): PostgreSQL locks them
 * until commit; SQLite needs nothing, its transactions begin immediate (one writer at a time).
 */
// biome-ignore lint/suspicious/noExplicitAny: generic over any select query
export function lockForUpdate<Q extends SelectQueryBuilder<any, any, any>>(engine: Engine, query: Q): Q {
  return engine === 'postgres' ? (query.forUpdate() as Q) : query
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
