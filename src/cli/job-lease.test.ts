// JOB_LEASE_SECONDS (docs/operations.md#configuration) reaches the job worker of both commands that
// run one, `paraph worker` and `paraph serve`: a claimed job is held that long. Each worker is
// given a mail job to an SMTP server that accepts the connection and never greets, so the job
// stays claimed while its lease is read; each is then killed, holding its job, and the next
// worker claims the next job (the earlier ones are still leased).
import assert from 'node:assert/strict'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer, type Server, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { createSchema, dropSchema, ENGINE, testEnv } from '../../test/harness.ts'
import { ParaphProcess, prepareDatabase, until } from '../../test/paraph-process.ts'
import { readConfig } from '../config.ts'
import { openDatabase } from '../db/database.ts'
import { enqueue } from '../jobs/job-store.ts'
import { systemClock } from '../lib/clock.ts'
import { randomIds } from '../lib/ids.ts'
import { mailJob } from '../mail/mail-job.ts'

describe('JOB_LEASE_SECONDS', () => {
  let dataDir: string
  let schema: string | undefined
  let env: Record<string, string>
  let database: ReturnType<typeof openDatabase>
  let silentSmtp: Server
  const sockets: Socket[] = []
  const children: ParaphProcess[] = []

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'paraph-lease-'))
    schema = ENGINE === 'postgres' ? await createSchema() : undefined
    silentSmtp = createServer((socket) => sockets.push(socket))
    await new Promise<void>((resolve) => silentSmtp.listen(0, '127.0.0.1', resolve))
    const port = (silentSmtp.address() as { port: number }).port
    env = testEnv(dataDir, schema, { SMTP_URL: `smtp://127.0.0.1:${port}`, LOG_LEVEL: 'warn' })
    await prepareDatabase(env)
    database = openDatabase(readConfig(env).database)
  })
  after(async () => {
    await Promise.all(children.map((child) => child.kill()))
    for (const socket of sockets) socket.destroy()
    await new Promise((resolve) => silentSmtp.close(resolve))
    await database.close()
    if (schema) await dropSchema(schema)
    await rm(dataDir, { recursive: true, force: true })
  })

  /** Queues a mail job, starts `args` with `extra`, and answers the claimed job's lease in ms. */
  async function leaseOfClaim(args: string[], extra: Record<string, string>): Promise<number> {
    const id = await database.db.transaction().execute((tx) =>
      enqueue(tx, { clock: systemClock, ids: randomIds }, mailJob, {
        to: 'ann@example.eu',
        bcc: null,
        reply_to: null,
        subject: 'Please sign',
        text: 'Sign here: https://x/s/abc',
        submission_id: 'sub_x',
        submitter_id: 'sbm_x',
      }),
    )
    const child = new ParaphProcess(args, { ...env, ...extra })
    children.push(child)
    const job = await until(`${args.join(' ')} claims its job`, async () => {
      assert.ok(child.alive, child.output)
      const row = await database.db
        .selectFrom('jobs')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
      return row.state === 'running' ? row : undefined
    })
    await child.kill()
    return new Date(job.locked_until!).getTime() - new Date(job.updated_at).getTime()
  }

  it('paraph worker holds a claimed job 60 s by default', async () => {
    assert.equal(await leaseOfClaim(['worker'], {}), 60_000)
  })

  it('paraph worker holds it JOB_LEASE_SECONDS', async () => {
    assert.equal(await leaseOfClaim(['worker'], { JOB_LEASE_SECONDS: '7' }), 7_000)
  })

  it("paraph serve's worker holds it JOB_LEASE_SECONDS", async () => {
    assert.equal(await leaseOfClaim(['serve'], { JOB_LEASE_SECONDS: '9', PORT: '0' }), 9_000)
  })
})
