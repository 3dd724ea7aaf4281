// Issue #33: fuzzing every operation got 85 × 500 `html_render_failed` "busy with this account's
// renders": an account that fills its own share of the renderer hit a limit it caused, which is a
// 429 `rate_limit_exceeded` with Retry-After naming the concurrent-render limit (docs/api.md#rate-limits),
// never a 5xx. Real Chromium, real app: one slow render of the account holds its only slot, so the
// next from_html of that account finds no slot and no waiting place.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { post } from '../../test/documents.ts'
import { errorOf, startTestApp, type TestApp } from '../../test/harness.ts'
import { markPrefix, waitFor } from '../render/renderer-test-kit.ts'

const SHADOWED =
  '<div style="width:80px;height:20px;margin:2px;display:inline-block;border-radius:12px;box-shadow:0 0 60px 40px rgba(0,0,0,.5),inset 0 0 30px 20px rgba(255,0,0,.5)">x</div>'
// Seconds of Chromium's time (~16 s alone on this machine): it holds the slot until the renderer closes.
const SLOW = `<p>order</p>${SHADOWED.repeat(2000)}`
const SMALL = '<p>Order form</p><p>{{Signature;role=signer}}</p>'

describe('POST /v1/submissions/from_html past the account’s concurrent-render limit (issue #33)', () => {
  let t: TestApp
  let inFlight = 0
  before(async () => {
    t = await startTestApp({
      renderer: { concurrency: 1, queuePerAccount: 0, onRenderStart: (n) => (inFlight = n) },
    })
  })
  after(() => t.close())

  const fromHtml = (key: string, html: string) =>
    post(t, key, '/v1/submissions/from_html', {
      name: 'Order',
      html,
      submitters: [{ role: 'signer', email: 'signer@example.eu' }],
      send_email: false,
    })

  it("429 rate_limit_exceeded with Retry-After and a message naming the limit; another account's render is 201", async () => {
    const { accountId, testKey } = await t.account('Busy')
    const other = (await t.account('Neighbour')).testKey
    const held = t.deps.renderer.render(SLOW, 'A4', markPrefix(), { account: accountId })
    held.catch(() => {})
    await waitFor(() => inFlight >= 1, 60_000, "the account's slow render to hold its slot")

    const refused = await fromHtml(testKey, SMALL)
    assert.equal(refused.statusCode, 429, refused.body)
    assert.deepEqual(errorOf(refused), {
      type: 'rate_limit_error',
      code: 'rate_limit_exceeded',
      message:
        'Too many concurrent HTML renders for this account (1 running, 0 waiting): its concurrent-render limit is 1 at once and 0 waiting; retry in a few seconds, or send fewer renders at once.',
    })
    assert.equal(refused.headers['retry-after'], '5')
    assert.ok(refused.headers['x-ratelimit-limit'], 'an authenticated answer keeps its X-RateLimit-* headers')

    // The slot kept for the other accounts: not this account's limit.
    assert.equal((await fromHtml(other, SMALL)).statusCode, 201)
    await t.deps.renderer.close()
    await assert.rejects(held)
  })
})
