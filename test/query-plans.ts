// What a statement costs as its tables grow, read from the engine itself.
// PostgreSQL: EXPLAIN ANALYZE (in a transaction rolled back, writes included) and the rows each scan
// node read — rows returned plus rows its filter threw away, times its loops — so a plan that walks
// an account's whole history to find a page shows however the planner chose to walk it.
// SQLite has no EXPLAIN ANALYZE: its plan must search every table through an index whose equality
// terms cover the statement's own `column = ?` filters, and never sort rows in a temporary b-tree.
import Sqlite from 'better-sqlite3'
import pg from 'pg'
import type { CapturedStatement } from './query-capture.ts'

export interface PlanVerdict {
  sql: string
  plan: string
  /** Why the plan grows with the table; empty when it does not. */
  problems: string[]
}

/** Tables whose row count grows with submissions; the others stay small. */
export const GROWING_TABLES = [
  'submissions',
  'submitters',
  'events',
  'signatures',
  'jobs',
  'templates',
  'idempotency_keys',
  'group_members',
] as const

const touchesGrowing = (text: string) =>
  GROWING_TABLES.some((table) => new RegExp(`(from|into|update|join)\\s+"?${table}"?\\b`, 'i').test(text))

/** Statements worth a plan: the ones reading or changing a growing table by a condition. */
export function planned(statements: CapturedStatement[]): CapturedStatement[] {
  return statements.filter(
    ({ sql }) => touchesGrowing(sql) && (!/^\s*insert\b/i.test(sql) || /\bselect\b/i.test(sql)),
  )
}

interface PgNode {
  'Node Type': string
  'Relation Name'?: string
  'Index Name'?: string
  'Actual Rows'?: number
  'Actual Loops'?: number
  'Rows Removed by Filter'?: number
  'Rows Removed by Index Recheck'?: number
  Plans?: PgNode[]
}

function* nodes(node: PgNode): Generator<PgNode> {
  yield node
  for (const child of node.Plans ?? []) yield* nodes(child)
}

function describe(node: PgNode, depth = 0): string {
  const read = rowsRead(node)
  const head = `${'  '.repeat(depth)}${node['Node Type']}${node['Relation Name'] ? ` on ${node['Relation Name']}` : ''}${node['Index Name'] ? ` using ${node['Index Name']}` : ''} (read ${read})`
  return [head, ...(node.Plans ?? []).map((child) => describe(child, depth + 1))].join('\n')
}

function rowsRead(node: PgNode): number {
  const loops = node['Actual Loops'] ?? 1
  const perLoop =
    (node['Actual Rows'] ?? 0) +
    (node['Rows Removed by Filter'] ?? 0) +
    (node['Rows Removed by Index Recheck'] ?? 0)
  return perLoop * loops
}

/** PostgreSQL: no scan node of a growing table reads more than `maxRows` rows. */
export async function checkPostgres(
  url: string,
  statement: CapturedStatement,
  maxRows: number,
): Promise<PlanVerdict> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query('begin')
    const { rows } = await client.query(
      `explain (analyze, format json) ${statement.sql}`,
      statement.parameters,
    )
    await client.query('rollback')
    const root = (rows[0]['QUERY PLAN'] as Array<{ Plan: PgNode }>)[0]!.Plan
    const problems: string[] = []
    // An aggregate reads the rows it counts (GET /v1/usage: the account's month of the ledger,
    // bounded on its own by the usage bench row); only lists and lookups are held to maxRows.
    const aggregate = /\bcount\(/i.test(statement.sql)
    for (const node of aggregate ? [] : nodes(root)) {
      const table = node['Relation Name']
      if (!table || !(GROWING_TABLES as readonly string[]).includes(table)) continue
      if (rowsRead(node) > maxRows)
        problems.push(`${node['Node Type']} on ${table} read ${rowsRead(node)} rows`)
    }
    return { sql: statement.sql, plan: describe(root), problems }
  } finally {
    await client.end()
  }
}

/** The `column = ?` filters of a one-table statement, by column name. */
function equalityColumns(text: string): string[] {
  const where =
    /\bwhere\b([\s\S]*?)(\border by\b|\blimit\b|\bgroup by\b|\breturning\b|$)/i.exec(text)?.[1] ?? ''
  return [...where.matchAll(/"(\w+)"\s*=\s*\?/g)].map((m) => m[1]!)
}

const UNIQUE_TERMS = /\b(id|signing_slug|key_hash|submitter_id|token_hash)=\?/
/** Rows of one submission (its submitters, its events): as many as the spec lets it have. */
const BOUNDED_TERMS = /\bsubmission_id=\?/

/** SQLite: every growing table searched through an index covering the statement's equality filters. */
export function checkSqlite(path: string, statement: CapturedStatement): PlanVerdict {
  const db = new Sqlite(path, { readonly: true })
  try {
    const plan = db.prepare(`explain query plan ${statement.sql}`).all(...statement.parameters) as Array<{
      detail: string
    }>
    const problems: string[] = []
    const oneTable = !/\bjoin\b/i.test(statement.sql)
    const wanted = oneTable ? equalityColumns(statement.sql) : []
    const bounded = plan.some(({ detail }) => BOUNDED_TERMS.test(detail))
    for (const { detail } of plan) {
      const table = /^(?:SCAN|SEARCH) (\w+)/.exec(detail)?.[1]
      if (/TEMP B-TREE FOR (ORDER BY|RIGHT PART OF ORDER BY)/.test(detail) && !bounded) problems.push(detail)
      if (!table || !(GROWING_TABLES as readonly string[]).includes(table)) continue
      if (detail.startsWith('SCAN')) {
        problems.push(detail)
        continue
      }
      const terms = /INDEX \w+ \((.*)\)\s*$/.exec(detail)?.[1] ?? ''
      if (UNIQUE_TERMS.test(terms) || /PRIMARY KEY|sqlite_autoindex_/.test(detail)) continue
      const missing = wanted.filter((column) => !new RegExp(`\\b${column}[=<>]`).test(terms))
      if (missing.length) problems.push(`${detail}: filters on ${missing.join(', ')} after the index`)
    }
    return { sql: statement.sql, plan: plan.map((p) => p.detail).join('\n'), problems }
  } finally {
    db.close()
  }
}
