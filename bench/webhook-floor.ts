// The floors of the webhook throughput row, each run as its own process like Paraph's
// worker: a bare undici loop POSTing the same signed bodies (read from Paraph's deliveries) to the
// same receiver, as many at once as Paraph's dispatcher sends (CONCURRENCY workers over the list),
// through undici's default keep-alive agent; nothing else. With DATABASE_URL it is the durable
// floor: after each answer, the least a delivery service must write before it can say a delivery
// was made — the attempt's row and the delivery's new state, in one transaction, through the raw
// driver (better-sqlite3 with Paraph's pragmas, or a pg pool of CONCURRENCY connections) on
// Paraph's own tables. Prints `{"started": epoch ms}` first.
// Usage: node --import tsx bench/webhook-floor.ts DELIVERIES_JSON CONCURRENCY [DATABASE_URL]
import { createHmac } from 'node:crypto'
import { readFileSync } from 'node:fs'
import Database from 'better-sqlite3'
import pg from 'pg'
import { request } from 'undici'

const [file, concurrency, databaseUrl] = process.argv.slice(2) as [string, string, string | undefined]
const deliveries = JSON.parse(readFileSync(file, 'utf8')) as Array<{
  id: string
  endpointId: string
  url: string
  body: string
  secret: string
}>

const INSERT_ATTEMPT = `insert into webhook_attempts (delivery_id, number, endpoint_id, started_at, duration_ms, status, error, succeeded, response_body) values ($1, 1, $2, $3, $4, $5, null, 1, '')`
const SETTLE = `update webhook_deliveries set state = 'delivered', last_status = $1, locked_until = null, updated_at = $2, delivered_at = $2 where id = $3`

type Record = (id: string, endpointId: string, startedAt: string, ms: number, status: number) => Promise<void>

/** The durable floor's write, ready (statements compiled, connections open) before the start line. */
async function recorder(
  url: string | undefined,
): Promise<{ record: Record | null; close: () => Promise<void> }> {
  if (!url) return { record: null, close: async () => {} }
  if (url.startsWith('sqlite:')) {
    const db = new Database(url.slice('sqlite:'.length))
    db.pragma('journal_mode = WAL')
    db.pragma('synchronous = NORMAL')
    db.pragma('busy_timeout = 5000')
    // better-sqlite3 takes $1 as the named parameter "1": one object binds them all.
    const insert = db.prepare(INSERT_ATTEMPT)
    const settle = db.prepare(SETTLE)
    const write = db.transaction((id: string, endpointId: string, at: string, ms: number, status: number) => {
      insert.run({ 1: id, 2: endpointId, 3: at, 4: ms, 5: status })
      settle.run({ 1: status, 2: new Date().toISOString(), 3: id })
    })
    return {
      record: async (...args) => {
        write.immediate(...args)
      },
      close: async () => {
        db.close()
      },
    }
  }
  const pool = new pg.Pool({ connectionString: url, max: Number(concurrency) })
  const clients = await Promise.all(Array.from({ length: Number(concurrency) }, () => pool.connect()))
  for (const client of clients) client.release()
  return {
    record: async (id, endpointId, at, ms, status) => {
      const client = await pool.connect()
      try {
        await client.query('begin')
        await client.query(INSERT_ATTEMPT, [id, endpointId, at, ms, status])
        await client.query(SETTLE, [status, new Date().toISOString(), id])
        await client.query('commit')
      } finally {
        client.release()
      }
    },
    close: () => pool.end(),
  }
}

const { record, close } = await recorder(databaseUrl)
console.log(JSON.stringify({ started: Date.now() }))
let next = 0
async function loop(): Promise<void> {
  while (next < deliveries.length) {
    const { id, endpointId, url, body, secret } = deliveries[next++]!
    const started = Date.now()
    const t = Math.floor(started / 1000)
    const v1 = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')
    const response = await request(url, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', 'paraph-signature': `t=${t},v1=${v1}` },
    })
    await response.body.dump()
    if (record)
      await record(id, endpointId, new Date(started).toISOString(), Date.now() - started, response.statusCode)
  }
}
await Promise.all(Array.from({ length: Number(concurrency) }, loop))
console.log(JSON.stringify({ finished: Date.now() }))
await close()
