// A process started before its PostgreSQL answers (docs/operations.md#starting-before-the-database):
// `paraph serve` and `paraph worker` wait for it — one warning, a try every second for up to 30 s —
// and start once it answers, instead of exiting on the first connect that fails or takes longer than
// the 1 s deadline (a database still starting, a loaded one, a container started first). A failure
// that waiting cannot mend (no such database) stops the process at once. The database is made
// unreachable by a TCP proxy in front of the shared PostgreSQL, which itself is never stopped.
import assert from 'node:assert/strict'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { createSchema, dropSchema, ENGINE, PG_URL, testEnv } from '../harness.ts'
import { ParaphProcess, runParaph } from '../paraph-process.ts'
import { TcpProxy } from '../tcp-proxy.ts'

const postgresOnly = ENGINE === 'postgres' ? false : 'PostgreSQL only: SQLite has no server to wait for'

describe('serve and worker wait for a PostgreSQL that does not answer yet', { skip: postgresOnly }, () => {
  const proxy = new TcpProxy({ host: '127.0.0.1', port: Number(new URL(PG_URL).port || 5432) })
  let schema: string
  let dataDir: string
  let env: Record<string, string>

  before(async () => {
    schema = await createSchema()
    dataDir = await mkdtemp(join(tmpdir(), 'paraph-start-'))
    // A port of its own, then closed: connecting to it is refused until up() again.
    await proxy.up()
    await proxy.down()
    const direct = testEnv(dataDir, schema)
    const url = new URL(direct.DATABASE_URL)
    url.port = String(proxy.port)
    env = { ...direct, DATABASE_URL: url.toString(), LOG_LEVEL: 'info', PORT: '0' }
  })

  after(async () => {
    await proxy.down()
    await dropSchema(schema)
    await rm(dataDir, { recursive: true, force: true })
  })

  it('serve and worker say they wait, once, and start when the database answers', async () => {
    const serve = new ParaphProcess(['serve', '--no-worker'], env)
    const worker = new ParaphProcess(['worker'], env)
    try {
      await serve.waitFor(/waiting for the database/)
      await worker.waitFor(/waiting for the database/)
      // Still waiting a few tries later, alive, having said it once.
      await new Promise((resolve) => setTimeout(resolve, 2500))
      assert.ok(serve.alive && worker.alive, `${serve.output}\n${worker.output}`)
      assert.equal(serve.logLines(/^waiting for the database/).length, 1)
      await proxy.up()
      const [, base] = await serve.waitFor(/Paraph listening on (http:\/\/127\.0\.0\.1:\d+)/, 15_000)
      await worker.waitFor(/paraph worker started/, 15_000)
      const res = await fetch(`${base}/readyz`)
      assert.equal(res.status, 200)
      assert.equal(serve.logLines(/^waiting for the database/).length, 1, 'said once')
    } finally {
      await Promise.all([serve.stop(), worker.stop()])
      await proxy.down()
    }
  })

  it('a database that does not exist stops serve at once, naming it', async () => {
    const url = new URL(PG_URL)
    url.pathname = '/paraph_no_such_database'
    const started = Date.now()
    const result = await runParaph(['serve'], { ...env, DATABASE_URL: url.toString() })
    assert.notEqual(result.code, 0)
    assert.match(result.stdout + result.stderr, /paraph_no_such_database/)
    assert.ok(Date.now() - started < 15_000, 'no 30 s wait for what waiting cannot mend')
  })
})
