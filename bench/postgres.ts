// A throwaway schema per PostgreSQL case. Paraph's DATABASE_URL has no schema setting, but
// node-postgres passes a libpq-style `options` parameter to the server, which sets search_path.
import { randomBytes } from 'node:crypto'
import pg from 'pg'

async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 })
  await client.connect()
  try {
    return await use(client)
  } finally {
    await client.end()
  }
}

export async function isReachable(url: string): Promise<boolean> {
  try {
    await withClient(url, (client) => client.query('select 1'))
    return true
  } catch {
    return false
  }
}

export interface BenchSchema {
  /** `url` with search_path set to the new schema. */
  url: string
  drop(): Promise<void>
}

export async function createBenchSchema(url: string): Promise<BenchSchema> {
  const schema = `bench_${randomBytes(6).toString('hex')}`
  await withClient(url, (client) => client.query(`create schema ${schema}`))
  const options = encodeURIComponent(`-c search_path=${schema}`)
  return {
    url: `${url}${url.includes('?') ? '&' : '?'}options=${options}`,
    drop: () =>
      withClient(url, (client) => client.query(`drop schema if exists ${schema} cascade`)).then(() => {}),
  }
}

/** `use` run against a throwaway schema, dropped afterwards; null when PostgreSQL is unreachable. */
export async function inThrowawaySchema<T>(
  url: string,
  use: (schemaUrl: string) => Promise<T>,
): Promise<T | null> {
  if (!(await isReachable(url))) return null
  const schema = await createBenchSchema(url)
  try {
    return await use(schema.url)
  } finally {
    await schema.drop()
  }
}
