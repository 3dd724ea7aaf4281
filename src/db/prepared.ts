// Hot read queries compiled once. Building a Kysely query (immutable nodes, freezing, compiling to
// SQL) cost ~75 µs per query on the GET paths, more than running it. A prepared query is built
// once with sentinel arguments; each call swaps the sentinels in the compiled parameters for the
// real values, so the SQL text — and SQLite's cached statement — is reused.
import type { Compilable, CompiledQuery } from 'kysely'
import { directReaderOf } from './database.ts'
import type { Executor } from './tables.ts'

const SENTINEL = '\u0000paraph-param:'

export function prepared<Args extends string[], Row>(
  build: (db: Executor, ...args: Args) => Compilable<Row>,
) {
  // Keyed by the dialect's adapter: the compiled SQL depends on the engine, not on the instance
  // or transaction it runs on.
  const cache = new WeakMap<object, { query: CompiledQuery<Row>; slots: Array<number | null> }>()
  return async (db: Executor, ...args: Args): Promise<Row[]> => {
    const adapter = db.getExecutor().adapter as object
    let entry = cache.get(adapter)
    if (!entry) {
      const sentinels = args.map((_, i) => `${SENTINEL}${i}`) as Args
      const query = build(db, ...sentinels).compile()
      const slots = query.parameters.map((p) =>
        typeof p === 'string' && p.startsWith(SENTINEL) ? Number(p.slice(SENTINEL.length)) : null,
      )
      if (slots.filter((s) => s !== null).length !== args.length) {
        throw new Error('prepared(): every argument must appear exactly once as a query parameter')
      }
      entry = { query, slots }
      cache.set(adapter, entry)
    }
    const { query, slots } = entry
    const parameters = query.parameters.map((p, i) => (slots[i] === null ? p : args[slots[i]!]))
    const direct = directReaderOf(db)?.read<Row>(query.sql, parameters)
    if (direct !== undefined) return direct
    return (await db.executeQuery<Row>({ ...query, parameters })).rows
  }
}

/**
 * A write compiled once the same way (the webhook dispatcher's records: a few statements per
 * delivery, where building them cost as much as running them). Every argument must appear exactly
 * once as a parameter — values of SET and VALUES, and WHERE comparisons with a non-null value —
 * whatever its type: the sentinel only marks its slot. Returns the number of rows affected.
 */
export function preparedWrite<Args extends unknown[]>(
  build: (db: Executor, ...args: Args) => Compilable<unknown>,
) {
  const cache = new WeakMap<object, { query: CompiledQuery<unknown>; slots: Array<number | null> }>()
  return async (db: Executor, ...args: Args): Promise<number> => {
    const adapter = db.getExecutor().adapter as object
    let entry = cache.get(adapter)
    if (!entry) {
      const sentinels = args.map((_, i) => `${SENTINEL}${i}`) as unknown as Args
      const query = build(db, ...sentinels).compile()
      const slots = query.parameters.map((p) =>
        typeof p === 'string' && p.startsWith(SENTINEL) ? Number(p.slice(SENTINEL.length)) : null,
      )
      if (slots.filter((s) => s !== null).length !== args.length) {
        throw new Error('preparedWrite(): every argument must appear exactly once as a query parameter')
      }
      entry = { query, slots }
      cache.set(adapter, entry)
    }
    const { query, slots } = entry
    const parameters = query.parameters.map((p, i) => (slots[i] === null ? p : args[slots[i]!]))
    const result = await db.executeQuery({ ...query, parameters })
    return Number(result.numAffectedRows ?? 0n)
  }
}
