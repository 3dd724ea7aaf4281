// The SDK against a real Paraph (docs/sdks.md): documents created from a PDF and from HTML; a
// creation whose answer is lost (a 500, a reset connection) retried with the same Idempotency-Key
// and made once; a 429's Retry-After waited for; 400, 404 and 409 thrown at once as typed errors;
// timeouts and AbortSignal. The fault proxy (test/fault-proxy.ts) sits between the SDK and Paraph
// and logs what reached it.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { answers, WebhookReceiver } from '../../test/fixtures/webhook-receiver.ts'
import { pdfBody, type SdkApp, startSdkApp, submissionCount } from './sdk-test-kit.ts'
import { Paraph, ParaphConnectionError, ParaphError, ParaphTimeoutError } from './src/paraph.ts'

const SUBMISSIONS = '^/v1/submissions/from_pdf$'

describe('the TypeScript SDK against Paraph', () => {
  let s: SdkApp
  before(async () => {
    s = await startSdkApp()
  })
  after(() => s.close())

  describe('creating documents', () => {
    it('creates a submission from a PDF and from HTML, each with an Idempotency-Key of its own', async () => {
      s.proxy.clear()
      const paraph = s.client()
      const fromPdf = await paraph.createSubmissionFromPdf({ body: await pdfBody() })
      assert.match(fromPdf.id, /^sub_/)
      assert.equal(fromPdf.submitters[0]?.email, 'ann@example.eu')
      const fromHtml = await paraph.createSubmissionFromHtml({
        body: {
          name: 'Consulting agreement',
          html: '<h1>Consulting agreement</h1><p>Signed: {{Signature;role=Client}}</p>',
          submitters: [{ role: 'Client', email: 'alice@example.com' }],
          send_email: false,
        },
      })
      assert.equal(fromHtml.fields?.[0]?.name, 'Signature')
      const read = await paraph.getSubmission({ path: { id: fromHtml.id } })
      assert.equal(read.id, fromHtml.id)
      const [a, b] = s.proxy.requests
      assert.match(a?.idempotencyKey ?? '', /^[0-9a-f-]{36}$/, 'a UUID v4 by default')
      assert.ok(b?.idempotencyKey && b.idempotencyKey !== a?.idempotencyKey, 'one key per call')
      assert.equal(s.proxy.requests[2]?.idempotencyKey, null, 'none on a GET')
    })
  })

  describe('retries', () => {
    it('a 500 after Paraph created the submission: retried with the same key, replayed, one submission', async () => {
      s.proxy.clear()
      const before = await submissionCount(s.t)
      s.proxy.plan({ method: 'POST', path: SUBMISSIONS, when: 'after', status: 500 })
      const paraph = s.client()
      const answer = await paraph.request('createSubmissionFromPdf', { body: await pdfBody() })
      assert.equal(answer.status, 201)
      assert.equal(answer.headers.get('idempotent-replayed'), 'true', 'the stored answer, replayed')
      assert.deepEqual(
        s.proxy.requests.map((r) => r.outcome),
        [500, 201],
      )
      const [first, retry] = s.proxy.requests
      assert.equal(retry?.idempotencyKey, first?.idempotencyKey)
      assert.equal(await submissionCount(s.t), before + 1, 'made once')
      const ids: string[] = []
      for await (const submission of paraph.list('listSubmissions', { query: { limit: 100 } }))
        ids.push(submission.id)
      assert.equal(ids.filter((id) => id === (answer.data as { id: string }).id).length, 1, 'listed once')
      assert.equal(ids.length, before + 1)
    })

    it('a connection reset after Paraph created it: retried the same way, one submission', async () => {
      s.proxy.clear()
      const before = await submissionCount(s.t)
      s.proxy.plan({ method: 'POST', path: SUBMISSIONS, when: 'reset' })
      const created = await s
        .client()
        .createSubmissionFromPdf({ body: await pdfBody() }, { idempotencyKey: 'my-key-1' })
      assert.deepEqual(
        s.proxy.requests.map((r) => [r.outcome, r.idempotencyKey]),
        [
          ['reset', 'my-key-1'],
          [201, 'my-key-1'],
        ],
        "the caller's key, on the retry too",
      )
      assert.equal(await submissionCount(s.t), before + 1)
      assert.match(created.id, /^sub_/)
    })

    it('the same key sent while its first request still runs: 409 idempotency_key_in_use, waited, replayed', async () => {
      s.proxy.clear()
      const before = await submissionCount(s.t)
      const pages = Array.from(
        { length: 10 },
        (_, i) => `<p style="break-after: page">Page ${i + 1}</p>`,
      ).join('')
      const body = {
        name: 'Ten pages',
        html: `${pages}<p>{{Signature;role=Client}}</p>`,
        submitters: [{ role: 'Client', email: 'alice@example.com' }],
        send_email: false,
      }
      const paraph = s.client()
      const first = paraph.request('createSubmissionFromHtml', { body }, { idempotencyKey: 'same-key-twice' })
      while (s.proxy.requests.length === 0) await new Promise((resolve) => setImmediate(resolve))
      // Each 409 is a retry: enough of them for a render (at most 20 s, docs/api.md#limits).
      const second = paraph.request(
        'createSubmissionFromHtml',
        { body },
        { idempotencyKey: 'same-key-twice', maxRetries: 25 },
      )
      const answers = await Promise.all([first, second])
      assert.deepEqual(
        answers.map((a) => a.status),
        [201, 201],
      )
      const [a, b] = answers.map((answer) => (answer.data as { id: string }).id)
      assert.equal(a, b, 'one submission, answered twice')
      const outcomes = s.proxy.requests.map((r) => r.outcome)
      const refusals = outcomes.filter((o) => o === 409).length
      assert.ok(refusals >= 1, `409 while the first ran: ${outcomes}`)
      assert.deepEqual(
        outcomes.filter((o) => o !== 409),
        [201, 201],
        'then its replay',
      )
      assert.ok(s.proxy.requests.every((r) => r.idempotencyKey === 'same-key-twice'))
      const times = s.proxy.requests.filter((r) => r.outcome !== 201 || r === s.proxy.requests.at(-1))
      for (let i = 1; i < times.length; i++) {
        assert.ok(times[i]!.at - times[i - 1]!.at >= 1000, 'each retry after Retry-After: 1')
      }
      assert.equal(await submissionCount(s.t), before + 1)
    })

    it('a 429 is retried no sooner than its Retry-After', async () => {
      s.proxy.clear()
      s.proxy.plan({
        path: '^/v1/submissions$',
        when: 'before',
        status: 429,
        headers: { 'retry-after': '1' },
      })
      const page = await s.client().listSubmissions({ query: { limit: 1 } })
      assert.equal(page.data.length, 1)
      const [limited, retried] = s.proxy.requests
      assert.equal(limited?.outcome, 429)
      assert.equal(retried?.outcome, 200)
      assert.ok(retried!.at - limited!.at >= 1000, `retried after ${retried!.at - limited!.at} ms`)
    })

    it('gives up after maxRetries with the last typed error', async () => {
      s.proxy.clear()
      s.proxy.plan({ path: '^/v1/health$', when: 'before', status: 503, times: 3 })
      const error = await rejection(s.client({ maxRetries: 2 }).getHealth())
      assert.ok(error instanceof ParaphError)
      assert.equal(error.status, 503)
      assert.equal(error.code, 'injected_fault')
      assert.equal(s.proxy.requests.length, 3)
    })

    it('a POST without an Idempotency-Key is not retried after a 500 (it may have acted)', async () => {
      s.proxy.clear()
      s.proxy.plan({ path: '^/v1/webhook_endpoints$', when: 'after', status: 500 })
      const error = await rejection(
        s.client().createWebhookEndpoint({
          body: { url: 'https://hooks.example.com/a', events: ['submission.completed'] },
        }),
      )
      assert.equal((error as ParaphError).status, 500)
      assert.equal(s.proxy.requests.length, 1)
    })
  })

  describe('errors that are not retried', () => {
    it('400 invalid_id, 404 resource_not_found and 409: one request each, typed fields', async () => {
      const paraph = s.client()
      s.proxy.clear()
      const badId = await rejection(paraph.getSubmission({ path: { id: 'nope' } }))
      assert.ok(badId instanceof ParaphError)
      assert.deepEqual([badId.status, badId.type, badId.code], [400, 'invalid_request_error', 'invalid_id'])
      assert.match(badId.requestId ?? '', /^req_/)
      assert.equal(s.proxy.requests.length, 1)

      s.proxy.clear()
      const missing = await rejection(paraph.getSubmission({ path: { id: `sub_${'A'.repeat(24)}` } }))
      assert.deepEqual(
        [(missing as ParaphError).status, (missing as ParaphError).code],
        [404, 'resource_not_found'],
      )
      assert.equal(s.proxy.requests.length, 1)

      const created = await paraph.createSubmissionFromPdf({ body: await pdfBody() })
      await paraph.cancelSubmission({ path: { id: created.id } })
      s.proxy.clear()
      const again = await rejection(paraph.cancelSubmission({ path: { id: created.id } }))
      assert.ok(again instanceof ParaphError)
      assert.equal(again.status, 409)
      assert.equal(again.type, 'invalid_request_error')
      assert.match(again.message, /.+/)
      assert.equal(s.proxy.requests.length, 1)
    })

    it('422 names the field in param', async () => {
      const body = { ...(await pdfBody()), submitters: [{ role: 'signer', email: 'not an address' }] }
      const error = await rejection(s.client().createSubmissionFromPdf({ body }))
      assert.ok(error instanceof ParaphError)
      assert.equal(error.status, 422)
      assert.equal(error.param, 'submitters[0].email')
    })
  })

  describe('timeouts and AbortSignal (a real server that never answers)', () => {
    let silent: WebhookReceiver
    before(async () => {
      silent = await WebhookReceiver.start()
      silent.otherwise = answers.hang()
    })
    after(() => silent.close())
    const hanging = (more = {}) =>
      new Paraph({ apiKey: s.key, baseUrl: silent.url(''), retry: { baseDelayMs: 1 }, ...more })

    it('an attempt past timeoutMs fails; a creation is retried with its key, then ParaphTimeoutError', async () => {
      const count = silent.received.length
      const started = Date.now()
      const error = await rejection(
        hanging({ timeoutMs: 150, maxRetries: 1 }).createSubmissionFromPdf({ body: await pdfBody() }),
      )
      assert.ok(error instanceof ParaphTimeoutError)
      assert.ok(error instanceof ParaphConnectionError)
      assert.ok(Date.now() - started >= 300, 'two attempts of 150 ms')
      const attempts = silent.received.slice(count)
      assert.equal(attempts.length, 2)
      assert.equal(attempts[0]?.headers['idempotency-key'], attempts[1]?.headers['idempotency-key'])
    })

    it('aborting a call stops it at once, waiting or not; an aborted signal sends nothing', async () => {
      const count = silent.received.length
      const controller = new AbortController()
      const call = hanging().getHealth(undefined, { signal: controller.signal })
      await silent.waitFor(count + 1)
      controller.abort(new Error('caller gave up'))
      await assert.rejects(call, /caller gave up/)

      await assert.rejects(
        hanging().getHealth(undefined, { signal: AbortSignal.abort() }),
        (e: Error) => e.name === 'AbortError',
      )
      assert.equal(silent.received.length, count + 1, 'no request for the aborted signal')
    })

    it('aborting during a backoff wait stops the wait', async () => {
      s.proxy.clear()
      s.proxy.plan({ path: '^/v1/health$', when: 'before', status: 429, headers: { 'retry-after': '30' } })
      const controller = new AbortController()
      const call = s.client().getHealth(undefined, { signal: controller.signal })
      while (s.proxy.requests.length === 0) await new Promise((resolve) => setImmediate(resolve))
      const started = Date.now()
      controller.abort()
      await assert.rejects(call, (e: Error) => e.name === 'AbortError')
      assert.ok(Date.now() - started < 5000)
      assert.equal(s.proxy.requests.length, 1)
    })
  })
})

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise
  } catch (error) {
    return error
  }
  assert.fail('expected a rejection')
}
