// The background metrics read back after a real flow: a submission signed to
// completion with webhook endpoints that accept and refuse, the worker and dispatcher run, and
// GET /metrics compared with what the tables say — job gauges, deliveries, finalizations, mails.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { answers, WebhookReceiver } from '../../test/fixtures/webhook-receiver.ts'
import { listenForMetrics, scrape, series } from '../../test/metrics.ts'
import { createSubmission, everyTypeBody, FIRST_VALUES, signer } from '../../test/signing.ts'
import { type HookApp, startHookApp } from '../../test/webhooks.ts'
import { attemptsOf } from '../jobs/define-job.ts'
import { finalizeSubmissionDeclaration } from '../lifecycle/submission-jobs.ts'
import { mailJob } from '../mail/mail-job.ts'
import { closePdfFinalizer } from '../pdf/finalizer/finalize-pdf.ts'
import type { MetricsServer } from './metrics-server.ts'

const EVENTS = ['submission.created', 'submission.completed']

describe('GET /metrics after a submission signed to completion', () => {
  let h: HookApp
  let server: MetricsServer
  let accepting: WebhookReceiver
  let refusing: WebhookReceiver
  let samples: Map<string, number>
  const metric = (name: string, labels: Record<string, string>) => samples.get(series(name, labels))
  const read = async () => {
    samples = (await scrape(server.address)).samples
  }
  const jobRows = () =>
    h.t.deps.db
      .selectFrom('jobs')
      .select(['kind', 'state'])
      .execute()
      .then((rows) => rows.map((r) => `${r.kind} ${r.state}`))
  const countOf = (rows: string[], row: string) => rows.filter((r) => r === row).length

  before(async () => {
    h = await startHookApp({ env: { METRICS_LISTEN: '127.0.0.1:0' } })
    server = await listenForMetrics(h.t)
    accepting = await WebhookReceiver.start()
    refusing = await WebhookReceiver.start()
    refusing.otherwise = answers.status(500, 'no')
    await h.endpoint(accepting.url(), EVENTS)
    const other = await h.fresh(refusing.url(), EVENTS)
    await h.submission(other.key)
  })
  after(async () => {
    closePdfFinalizer()
    await server.close()
    await accepting.close()
    await refusing.close()
    await h.close()
  })

  it('200 with the pending jobs of each kind and the age of the oldest, read from the jobs table', async () => {
    const created = await createSubmission(h.t, h.key, await everyTypeBody(['first']))
    const signed = await signer(h.t, created.submitters[0]!, 'sign', { values: FIRST_VALUES })
    assert.equal(signed.statusCode, 200, signed.body)
    h.t.clock.advance(120_000)
    await read()
    const rows = await jobRows()
    const kinds = new Set(rows.map((r) => r.split(' ')[0] as string))
    assert.ok(kinds.has(mailJob.kind) && kinds.has(finalizeSubmissionDeclaration.kind), [...kinds].join())
    for (const kind of kinds) {
      const pending = countOf(rows, `${kind} pending`)
      assert.ok(pending > 0)
      assert.equal(metric('paraph_jobs', { kind, state: 'pending' }), pending, kind)
      assert.equal(metric('paraph_jobs', { kind, state: 'running' }), 0, kind)
      assert.equal(metric('paraph_jobs', { kind, state: 'dead' }), 0, kind)
      // Every job was made at the manual clock's start, 120 s ago.
      assert.equal(metric('paraph_jobs_oldest_age_seconds', { kind, state: 'pending' }), 120, kind)
      assert.equal(metric('paraph_jobs', { kind, state: 'done' }), undefined, 'done jobs are not counted')
    }
  })

  it('200 with the finalization, the mails and the deliveries counted by outcome once the work has run', async () => {
    await h.work()
    await read()
    const rows = await jobRows()
    assert.equal(countOf(rows, `${finalizeSubmissionDeclaration.kind} done`), 1)
    assert.equal(metric('paraph_finalizations_total', { outcome: 'completed' }), 1)
    assert.equal(metric('paraph_finalization_duration_seconds_count', { outcome: 'completed' }), 1)
    assert.equal(metric('paraph_finalizations_total', { outcome: 'failed' }), undefined)
    // No SMTP_URL: every mail job's message is kept in the outbox.
    const mails = countOf(rows, `${mailJob.kind} done`)
    assert.ok(mails >= 2, `signing request and completion notice: ${mails}`)
    assert.equal(metric('paraph_mails_total', { outcome: 'outboxed' }), mails)
    assert.equal(metric('paraph_mails_total', { outcome: 'sent' }), undefined)
    for (const kind of new Set(rows.map((r) => r.split(' ')[0] as string)))
      assert.equal(metric('paraph_jobs', { kind, state: 'pending' }), 0, kind)

    const deliveries = await h.t.deps.db
      .selectFrom('webhook_deliveries')
      .select(['state', 'attempts'])
      .execute()
    const delivered = deliveries.filter((d) => d.state === 'delivered').length
    assert.equal(delivered, 2, 'created and completed, to the accepting endpoint')
    // The refused delivery: its first attempt and the one due 30 s after the event (the clock moved 120 s).
    const refused = deliveries.filter((d) => d.state === 'pending')
    assert.deepEqual(
      refused.map((d) => d.attempts),
      [2],
    )
    assert.equal(metric('paraph_webhook_deliveries_total', { outcome: 'delivered' }), delivered)
    assert.equal(metric('paraph_webhook_deliveries_total', { outcome: 'failed_attempt' }), 2)
    assert.equal(metric('paraph_webhook_deliveries_total', { outcome: 'gave_up' }), undefined)
  })

  it('200 with a finalization that fails: retried on each attempt left, then failed', async () => {
    const created = await createSubmission(h.t, h.key, await everyTypeBody(['first']))
    const row = await h.t.deps.db
      .selectFrom('submissions')
      .innerJoin('templates', 'templates.id', 'submissions.template_id')
      .select('templates.documents')
      .where('submissions.id', '=', created.id)
      .executeTakeFirstOrThrow()
    const signed = await signer(h.t, created.submitters[0]!, 'sign', { values: FIRST_VALUES })
    assert.equal(signed.statusCode, 200, signed.body)
    // The document gone from storage: every attempt of the finalization fails.
    for (const document of JSON.parse(row.documents) as Array<{ blob_key: string }>)
      await h.t.deps.blobs.delete(document.blob_key)
    for (let attempt = 1; attempt <= attemptsOf(finalizeSubmissionDeclaration); attempt++) {
      await h.work()
      h.t.clock.advance(3600_000)
    }
    await read()
    assert.equal(
      metric('paraph_finalizations_total', { outcome: 'retried' }),
      attemptsOf(finalizeSubmissionDeclaration) - 1,
    )
    assert.equal(metric('paraph_finalizations_total', { outcome: 'failed' }), 1)
    assert.equal(metric('paraph_finalization_duration_seconds_count', { outcome: 'failed' }), 1)
    assert.equal(metric('paraph_finalizations_total', { outcome: 'completed' }), 1, 'the earlier one')
    assert.equal(metric('paraph_jobs', { kind: finalizeSubmissionDeclaration.kind, state: 'dead' }), 1)
  })

  it('200 with the refused delivery counted gave_up once its retry schedule has run out', async () => {
    for (let i = 0; i < 10; i++) {
      h.t.clock.advance(24 * 3600_000)
      await h.work()
    }
    await read()
    const pending = await h.t.deps.db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('state', '=', 'pending')
      .execute()
    assert.deepEqual(pending, [])
    assert.equal(metric('paraph_webhook_deliveries_total', { outcome: 'gave_up' }), 1)
  })
})
