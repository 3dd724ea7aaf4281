// Statements over many rows at once (a batch of purges, docs/privacy.md#purge): lists cut to what
// one statement may bind on either engine, and the expression that gives each row of one UPDATE its
// own value.

import { type RawBuilder, sql } from 'kysely'

/** Rows one statement names at most: far below SQLite's 32 766 and PostgreSQL's 65 535 parameters. */
export const STATEMENT_ROWS = 500

/** `items` cut into lists of at most `size`, in order. */
export function chunksOf<T>(items: readonly T[], size = STATEMENT_ROWS): T[][] {
  const chunks: T[][] = []
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size))
  return chunks
}

/**
 * `CASE <key> WHEN k1 THEN v1 … END`: in `UPDATE … SET column = valueByKey('id', values) WHERE id IN
 * (…keys)`, each row gets its own text value in one statement (plain SQL on both engines, where
 * `UPDATE … FROM (VALUES …)` is not). At most STATEMENT_ROWS entries.
 */
export function valueByKey(key: string, values: ReadonlyMap<string, string>): RawBuilder<string> {
  const branches = [...values].map(([k, v]) => sql`when ${k} then ${v}`)
  return sql<string>`case ${sql.ref(key)} ${sql.join(branches, sql` `)} end`
}
