// docs/scaling.md#when-postgresql-goes-away: every process outlives its PostgreSQL connections. Two
// `paraph serve --no-worker` and one `paraph worker`, on the test run's own schema, reach PostgreSQL
// through a TCP proxy of the test's. Every backend of theirs is terminated (`pg_terminate_backend`,
// as a restart or a failover does) under light load, twice; then PostgreSQL is taken away (the proxy
// refuses and resets) and given back. The shared server itself is never stopped.
import assert from 'node:assert/strict'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import pg from 'pg'
import { randomBase62 } from '../../src/lib/ids.ts'
import { base64, fromPdfBody } from '../documents.ts'
import { hundredPages } from '../fixtures/pdfs.ts'
import { createSchema, dropSchema, ENGINE, PG_URL, testEnv } from '../harness.ts'
import { ParaphProcess, prepareDatabase, startServe, until } from '../paraph-process.ts'
import { SIGNATURE } from '../signing.ts'
import { TcpProxy } from '../tcp-proxy.ts'

interface Answer {
  api: number
  at: number
  ms: number
  /** The HTTP status and error code, or `network <code>` when no answer came. */
  outcome: string
}

/** A GET that reads the database, sent to each API every 25 ms while running. */
class LightLoad {
  readonly answers: Answer[] = []
  #running = true
  #loops: Promise<void>[] = []

  constructor(bases: string[], key: string) {
    this.#loops = bases.map(async (base, api) => {
      while (this.#running) {
        this.answers.push({ api, ...(await timedGet(`${base}/v1/submissions?limit=1`, key)) })
        await new Promise((resolve) => setTimeout(resolve, 25))
      }
    })
  }

  async stop(): Promise<void> {
    this.#running = false
    await Promise.all(this.#loops)
  }
}

async function timedGet(url: string, key?: string): Promise<{ at: number; ms: number; outcome: string }> {
  const at = Date.now()
  try {
    const res = await fetch(url, { headers: key ? { authorization: `Bearer ${key}` } : {} })
    const body = (await res.json()) as { error?: { code: string } }
    return { at, ms: Date.now() - at, outcome: `${res.status}${body.error ? ` ${body.error.code}` : ''}` }
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause
    return { at, ms: Date.now() - at, outcome: `network ${cause?.code ?? (error as Error).message}` }
  }
}

const postgresOnly = ENGINE === 'postgres' ? false : 'PostgreSQL only: SQLite has no connections to lose'

describe('processes outlive their PostgreSQL connections', { skip: postgresOnly }, () => {
  const application = `paraph_fault_${randomBase62(8).toLowerCase()}`
  const proxy = new TcpProxy({ host: '127.0.0.1', port: Number(new URL(PG_URL).port || 5432) })
  let schema: string
  let dataDir: string
  let key: string
  const apis: Array<{ process: ParaphProcess; base: string }> = []
  let worker: ParaphProcess
  let admin: pg.Client

  before(async () => {
    schema = await createSchema()
    dataDir = await mkdtemp(join(tmpdir(), 'paraph-outage-'))
    await proxy.up()
    const direct = testEnv(dataDir, schema)
    const url = new URL(direct.DATABASE_URL)
    url.port = String(proxy.port)
    url.searchParams.set('application_name', application)
    const env = { ...direct, DATABASE_URL: url.toString(), LOG_LEVEL: 'info', RATE_LIMIT_TEST: '100000' }
    key = await prepareDatabase(direct)
    // One after the other, each kept as soon as it listens: after() stops whichever started, and two
    // cold starts at once on a loaded machine have overrun the 1 s connect of the first migration.
    for (let i = 0; i < 2; i++) apis.push(await startServe(['--no-worker'], env))
    worker = new ParaphProcess(['worker'], env)
    await worker.waitFor(/paraph worker started/)
    admin = new pg.Client({ connectionString: PG_URL })
    await admin.connect()
  })

  after(async () => {
    await Promise.all([...apis.map((a) => a.process.stop()), worker?.stop()])
    await admin?.end()
    await proxy.down()
    await dropSchema(schema)
    await rm(dataDir, { recursive: true, force: true })
  })

  const terminateAll = async (): Promise<number> => {
    const { rows } = await admin.query<{ done: boolean }>(
      'select pg_terminate_backend(pid) as done from pg_stat_activity where application_name = $1',
      [application],
    )
    return rows.filter((r) => r.done).length
  }

  const allAlive = () => {
    for (const [i, api] of apis.entries())
      assert.ok(api.process.alive, `API ${i} died:\n${api.process.output}`)
    assert.ok(worker.alive, `the worker died:\n${worker.output}`)
  }

  const createAndSign = async (pdf?: Uint8Array) => {
    const body = await fromPdfBody()
    if (pdf) (body.documents as Array<Record<string, unknown>>)[0]!.pdf_base64 = base64(pdf)
    const res = await fetch(`${apis[0]!.base}/v1/submissions/from_pdf`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        'idempotency-key': randomBase62(16),
      },
      body: JSON.stringify(body),
    })
    assert.equal(res.status, 201, await res.clone().text())
    const created = (await res.json()) as { id: string; submitters: Array<{ signing_url: string }> }
    const slug = new URL(created.submitters[0]!.signing_url).pathname.split('/').pop()
    // Signed through the other API process.
    const signed = await fetch(`${apis[1]!.base}/s/${slug}/sign`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ values: { Signature: SIGNATURE } }),
    })
    assert.equal(signed.status, 200, await signed.text())
    return created.id
  }

  const completed = (id: string, ms = 90_000) =>
    until(
      `submission ${id} completed`,
      async () => {
        const res = await fetch(`${apis[0]!.base}/v1/submissions/${id}`, {
          headers: { authorization: `Bearer ${key}` },
        })
        if (res.status !== 200) return undefined
        const body = (await res.json()) as { status: string }
        return body.status === 'completed' ? body : undefined
      },
      ms,
    )

  it('two rounds of terminating every backend under load: no process lost, envelopes meanwhile, 200 again within 5 s', async (t) => {
    const load = new LightLoad(
      apis.map((a) => a.base),
      key,
    )
    try {
      // A long finalization is in flight during the second round.
      const pending = await createAndSign(await hundredPages(2_000_000))
      for (const round of [1, 2]) {
        await until('every process holds a connection', async () => {
          const { rows } = await admin.query<{ n: string }>(
            'select count(*) as n from pg_stat_activity where application_name = $1',
            [application],
          )
          return Number(rows[0]!.n) >= 3 ? true : undefined
        })
        const terminated = await terminateAll()
        assert.ok(terminated >= 3, `round ${round}: ${terminated} backends terminated`)
        const at = Date.now()
        for (const api of [0, 1]) {
          const first = await until(
            `API ${api} answers 200 after round ${round}`,
            async () => load.answers.find((a) => a.api === api && a.at > at && a.outcome === '200'),
            5000,
          )
          t.diagnostic(
            `round ${round}: ${terminated} backends terminated; API ${api} answered 200 ${first.at + first.ms - at} ms later`,
          )
        }
        allAlive()
      }
      const finished = await completed(pending)
      assert.equal(finished.status, 'completed')
    } finally {
      await load.stop()
    }
    const outcomes = new Set(load.answers.map((a) => a.outcome))
    for (const outcome of outcomes)
      assert.ok(['200', '500 db_error'].includes(outcome), `answered ${outcome}`)
    assert.ok(load.answers.filter((a) => a.outcome === '200').length > 20)
    allAlive()
  })

  it('PostgreSQL away: db_error within 1 s and /readyz 503; back: 200 within 5 s; the worker says it once', async (t) => {
    const unavailableBefore = worker.logLines(/^database unavailable/).length
    const backBefore = worker.logLines(/^database is back/).length
    await proxy.down()
    try {
      for (const { base } of apis) {
        for (let i = 0; i < 5; i++) {
          const answer = await timedGet(`${base}/v1/submissions?limit=1`, key)
          assert.equal(answer.outcome, '500 db_error')
          assert.ok(answer.ms < 1000, `answered in ${answer.ms} ms`)
        }
        const ready = await timedGet(`${base}/readyz`)
        assert.equal(ready.outcome, '503 not_ready')
        assert.ok(ready.ms < 1000, `readyz answered in ${ready.ms} ms`)
      }
      // Long enough for the worker to poll many times (every 500 ms when idle).
      await until('the worker notices', async () =>
        worker.logLines(/^database unavailable/).length > unavailableBefore ? true : undefined,
      )
      await new Promise((resolve) => setTimeout(resolve, 3000))
    } finally {
      await proxy.up()
    }
    const back = Date.now()
    for (const { base } of apis) {
      await until('200 after the database is back', async () =>
        (await timedGet(`${base}/v1/submissions?limit=1`, key)).outcome === '200' ? true : undefined,
      )
    }
    const ms = Date.now() - back
    t.diagnostic(`both APIs answered 200 ${ms} ms after the database was back`)
    assert.ok(ms < 5000, `both APIs answered 200 ${ms} ms after the database was back`)
    await until('the worker says the database is back', async () =>
      worker.logLines(/^database is back/).length > backBefore ? true : undefined,
    )
    assert.equal(
      worker.logLines(/^database unavailable/).length - unavailableBefore,
      1,
      'one line per outage',
    )
    allAlive()
    // The worker resumed by itself: a submission signed now completes.
    assert.equal((await completed(await createAndSign())).status, 'completed')
  })
})
