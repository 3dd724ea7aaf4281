// docs/api.md#bulk-send: "each row exactly once … a worker killed mid-way, a retried job or two
// workers at once never make a second one". A 2 000-row bulk send is created through the API (the
// test's app runs no worker); `paraph worker` children with JOB_LEASE_SECONDS=5 are SIGKILLed five
// times as the created count passes successive thresholds, each followed by a new worker that claims
// the dead one's job once its lease lapses. At the end: completed, 2 000 submissions, each row once.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { threeFieldRows, threeFieldTemplateBody } from '../bulk-send-rows.ts'
import { base64, post } from '../documents.ts'
import { a4 } from '../fixtures/pdfs.ts'
import { startTestApp, type TestApp, whatHappened } from '../harness.ts'
import { ParaphProcess, until } from '../paraph-process.ts'

const ROWS = 2000
const KILLS = 5
/** created counts at which a worker is killed: spread over the rows, the last well before the end. */
const THRESHOLDS = Array.from({ length: KILLS }, (_, i) => Math.round(((i + 1) * ROWS) / (KILLS + 2)))
/** Long enough for a worker's start, the dead one's lease (5 s) and a few hundred rows on a loaded machine. */
const STEP_MS = 60_000

interface BulkSend {
  id: string
  status: string
  counts: { total: number; created: number; failed: number; cancelled: number; pending: number }
}
interface Page<T> {
  data: T[]
  has_more: boolean
  next_cursor?: string | null
}
interface BulkRow {
  row: number
  external_id: string | null
  status: string
  submission_id: string | null
  errors: unknown[]
}

describe('a bulk send survives its worker killed five times', () => {
  let t: TestApp
  let key: string
  const children: ParaphProcess[] = []
  const startWorker = () => {
    const worker = new ParaphProcess(['worker'], { ...t.env, JOB_LEASE_SECONDS: '5', LOG_LEVEL: 'warn' })
    children.push(worker)
    return worker
  }

  before(async () => {
    // Polled every 20 ms and paged through: past the default 100 requests a minute.
    t = await startTestApp({ env: { RATE_LIMIT_TEST: '1000000', REQUEST_LOGS: 'false' } })
    key = (await t.account()).testKey
  })
  after(async () => {
    await Promise.all(children.map((child) => child.kill()))
    await t.close()
  })

  const get = async <T>(url: string): Promise<T> => {
    const res = await t.request(key, { method: 'GET', url })
    assert.equal(res.statusCode, 200, whatHappened(t, res))
    return res.json() as T
  }

  it(`${ROWS} rows, the worker SIGKILLed at ${THRESHOLDS.join(', ')} created: completed, each row's submission made once`, async () => {
    const template = await post(t, key, '/v1/templates', threeFieldTemplateBody(base64(await a4())))
    assert.equal(template.statusCode, 201, whatHappened(t, template))
    const res = await post(t, key, '/v1/bulk_sends', {
      template_id: template.json().id,
      rows: threeFieldRows(ROWS),
      send_email: false,
    })
    assert.equal(res.statusCode, 202, whatHappened(t, res))
    const id = (res.json() as BulkSend).id
    const bulkSend = () => get<BulkSend>(`/v1/bulk_sends/${id}`)

    for (const threshold of THRESHOLDS) {
      const worker = startWorker()
      const seen = await until(
        `counts.created passes ${threshold}`,
        async () => {
          assert.ok(worker.alive, `the worker exited:\n${worker.output}`)
          const job = await bulkSend()
          return job.counts.created >= threshold ? job : undefined
        },
        STEP_MS,
      )
      await worker.kill()
      // Killed mid-way: the job had rows left, and is still the killed worker's until its lease lapses.
      assert.equal(seen.status, 'running', `killed at ${seen.counts.created} created`)
      assert.ok(seen.counts.created < ROWS, `killed at ${seen.counts.created} created`)
    }
    const last = startWorker()
    const done = await until(
      'the bulk send completes',
      async () => {
        assert.ok(last.alive, `the worker exited:\n${last.output}`)
        const job = await bulkSend()
        return job.status === 'running' || job.status === 'queued' ? undefined : job
      },
      STEP_MS,
    )
    await last.stop()
    assert.equal(done.status, 'completed')
    assert.deepEqual(done.counts, { total: ROWS, created: ROWS, failed: 0, cancelled: 0, pending: 0 })

    // The rows: each number once, 1 to 2 000, each created with a submission of its own.
    const rows: BulkRow[] = []
    for (let cursor: string | null | undefined = null; ; ) {
      const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''
      const page: Page<BulkRow> = await get(`/v1/bulk_sends/${id}/rows?limit=100${query}`)
      rows.push(...page.data)
      if (!page.has_more) break
      cursor = page.next_cursor
    }
    assert.deepEqual(
      rows.map((r) => r.row),
      Array.from({ length: ROWS }, (_, i) => i + 1),
    )
    assert.ok(rows.every((r) => r.status === 'created' && r.submission_id !== null))
    assert.deepEqual(
      rows.map((r) => r.external_id),
      rows.map((r) => `emp-${r.row}`),
    )
    const rowSubmissions = new Set(rows.map((r) => r.submission_id))
    assert.equal(rowSubmissions.size, ROWS, 'each row its own submission')

    // The submissions listed with the filter are exactly the rows' submissions.
    const listed: string[] = []
    for (let cursor: string | null | undefined = null; ; ) {
      const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''
      const page: Page<{ id: string }> = await get(`/v1/submissions?bulk_send_id=${id}&limit=100${query}`)
      listed.push(...page.data.map((s) => s.id))
      if (!page.has_more) break
      cursor = page.next_cursor
    }
    assert.equal(listed.length, ROWS)
    assert.deepEqual(new Set(listed), rowSubmissions)

    // And in the database, whatever the API shows: 2 000 submissions of this bulk send, rows 1 to
    // 2 000 each once.
    const stored = await t.deps.db
      .selectFrom('submissions')
      .select((eb) => [
        eb.fn.countAll().as('n'),
        eb.fn.count('bulk_send_row').distinct().as('rows'),
        eb.fn.min('bulk_send_row').as('first'),
        eb.fn.max('bulk_send_row').as('last'),
      ])
      .where('bulk_send_id', '=', id)
      .executeTakeFirstOrThrow()
    assert.deepEqual([stored.n, stored.rows, stored.first, stored.last].map(Number), [ROWS, ROWS, 1, ROWS])
  })
})
