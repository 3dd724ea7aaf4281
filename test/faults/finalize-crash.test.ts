// docs/security.md#crash-safe-jobs: a worker process killed (SIGKILL) while it makes a final
// PDF, then a new worker once the job's lease has lapsed, finishes the submission exactly once.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { base64 } from '../documents.ts'
import { hundredPages } from '../fixtures/pdfs.ts'
import { startTestApp, type TestApp } from '../harness.ts'
import { ParaphProcess, until } from '../paraph-process.ts'
import { createSubmission, eventsOf, SIGNATURE, signer, submissionRow } from '../signing.ts'

const startWorker = (t: TestApp) => new ParaphProcess(['worker'], { ...t.env, LOG_LEVEL: 'info' })

describe('finalization survives a worker killed mid-way', () => {
  let t: TestApp
  let key: string
  const children: ParaphProcess[] = []
  before(async () => {
    t = await startTestApp()
    key = (await t.account()).testKey
  })
  after(async () => {
    await Promise.all(children.map((child) => child.kill()))
    await t.close()
  })

  it('SIGKILL during the job, lease lapses, a new worker completes it once', async () => {
    // A hundred pages: long enough to be caught in the middle.
    const created = await createSubmission(t, key, {
      documents: [
        {
          name: 'Long contract',
          pdf_base64: base64(await hundredPages(2_000_000)),
          fields: [{ name: 'Sig', role: 'signer', areas: [{ page: 100, x: 0.1, y: 0.8, w: 0.3, h: 0.05 }] }],
        },
      ],
      submitters: [{ role: 'signer', email: 'ann@example.eu' }],
    })
    assert.equal(
      (await signer(t, created.submitters[0]!, 'sign', { values: { Sig: SIGNATURE } })).statusCode,
      200,
    )
    const job = () =>
      t.deps.db
        .selectFrom('jobs')
        .selectAll()
        .where('kind', '=', 'submission.finalize')
        .where('payload', 'like', `%${created.id}%`)
        .executeTakeFirstOrThrow()

    const first = startWorker(t)
    children.push(first)
    await until('the first worker claims the job', async () =>
      (await job()).state === 'running' ? true : undefined,
    )
    await first.kill()
    assert.notEqual(
      (await submissionRow(t, created.id)).status,
      'completed',
      'killed before it could complete',
    )

    // The lease (60 s) lapses: moved into the past rather than waited for.
    await t.deps.db
      .updateTable('jobs')
      .set({ locked_until: '2000-01-01T00:00:00.000Z' })
      .where('id', '=', (await job()).id)
      .execute()
    const second = startWorker(t)
    children.push(second)
    await until('the second worker completes the submission', async () =>
      (await submissionRow(t, created.id)).status === 'completed' ? true : undefined,
    )
    await second.stop()
    const done = await job()
    assert.equal(done.state, 'done')
    assert.equal(done.attempt, 2)
    assert.equal((await eventsOf(t, created.id)).filter((e) => e.type === 'submission.completed').length, 1)
    const row = await submissionRow(t, created.id)
    assert.match(row.final_pdf_key ?? '', /final-2\.pdf$/)
    assert.ok(await t.deps.blobs.exists(row.final_pdf_key!))
  })
})
