import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { errorOf, startTestApp, type TestApp } from '../../test/harness.ts'
import { openSecret } from './webhook-secret.ts'

// A resolver only these tests know: public names, and names that resolve to private addresses.
const DNS: Record<string, string[]> = {
  'hooks.example.eu': ['93.184.216.34'],
  'rebind.example.eu': ['127.0.0.1'],
  'mixed.example.eu': ['93.184.216.34', '10.0.0.8'],
  'meta.example.eu': ['169.254.169.254'],
}
const resolve = async (host: string) => {
  const found = DNS[host]
  if (!found) throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' })
  return found.map((address) => ({ address, family: 4 as const }))
}

describe('POST /v1/webhook_endpoints', () => {
  let t: TestApp
  let key: string
  const create = (body: unknown, k = key) =>
    t.request(k, { method: 'POST', url: '/v1/webhook_endpoints', payload: body as object })

  before(async () => {
    t = await startTestApp({ resolve })
    key = (await t.account()).testKey
  })
  after(() => t.close())

  describe('happy', () => {
    it('201 with the secret shown once, sealed in the row, never in later answers', async () => {
      const res = await create({ url: 'https://hooks.example.eu/paraph', events: ['submission.completed'] })
      assert.equal(res.statusCode, 201, res.body)
      const body = res.json()
      assert.match(body.id, /^whk_[0-9A-Za-z]{24}$/)
      assert.match(body.secret, /^whsec_[0-9A-Za-z]{32}$/)
      assert.equal(body.object, 'webhook_endpoint')
      assert.equal(body.url, 'https://hooks.example.eu/paraph')
      assert.deepEqual(body.events, ['submission.completed'])
      assert.equal(body.active, true)
      assert.deepEqual(body.health, {
        failing: false,
        disabled: false,
        consecutive_failures: 0,
        failing_since: null,
        disabled_at: null,
        last_success_at: null,
        last_success_status: null,
        last_failure_at: null,
        last_failure_reason: null,
      })
      const row = await t.deps.db
        .selectFrom('webhook_endpoints')
        .selectAll()
        .where('id', '=', body.id)
        .executeTakeFirstOrThrow()
      assert.ok(!JSON.stringify(row).includes(body.secret), 'the secret is not stored in clear')
      assert.equal(openSecret(t.deps.keys.webhookSecret, row.secret_sealed), body.secret)
      const get = await t.request(key, { method: 'GET', url: `/v1/webhook_endpoints/${body.id}` })
      assert.equal(get.statusCode, 200)
      assert.ok(!get.body.includes(body.secret))
      assert.equal('secret' in get.json(), false)
      const list = await t.request(key, { method: 'GET', url: '/v1/webhook_endpoints' })
      assert.ok(!list.body.includes(body.secret))
    })

    it('every subscribable event at once; two endpoints get different secrets', async () => {
      const events = [
        'submission.created',
        'submission.sent',
        'submission.viewed',
        'submission.partially_signed',
        'submission.completed',
        'submission.declined',
        'submission.expired',
        'submission.cancelled',
        'submitter.reminded',
      ]
      const a = await create({ url: 'https://hooks.example.eu/a', events })
      const b = await create({ url: 'https://hooks.example.eu/a', events })
      assert.equal(a.statusCode, 201)
      assert.deepEqual(a.json().events, events)
      assert.notEqual(a.json().secret, b.json().secret)
    })
  })

  describe('errors', () => {
    it('422 invalid_request for any key beyond url and events, or a missing one', async () => {
      for (const body of [
        { url: 'https://hooks.example.eu/', events: ['submission.sent'], enabled: true },
        { url: 'https://hooks.example.eu/', events: ['submission.sent'], secret: 'whsec_x' },
        { url: 'https://hooks.example.eu/' },
        { events: ['submission.sent'] },
        { url: `https://hooks.example.eu/${'a'.repeat(2048)}`, events: ['submission.sent'] },
      ]) {
        const res = await create(body)
        assert.equal(res.statusCode, 422, JSON.stringify(body))
        assert.equal(errorOf(res).code, 'invalid_request')
      }
    })

    for (const [events, pattern] of [
      [[], /at least one/],
      [['submission.exploded'], /"submission.exploded" is not an event type/],
      [['submitter.signed'], /"submitter.signed" is journal-only/],
      [['submitter.opened', 'submission.sent'], /journal-only/],
      [['webhook.test'], /not an event type/],
      [['submission.sent', 'submission.sent'], /listed twice/],
    ] as const) {
      it(`422 invalid_events for ${JSON.stringify(events)}`, async () => {
        const res = await create({ url: 'https://hooks.example.eu/', events })
        assert.equal(res.statusCode, 422)
        assert.equal(errorOf(res).code, 'invalid_events')
        assert.match(errorOf(res).message, pattern)
      })
    }

    it('422 webhook_endpoint_limit_reached past 25 active endpoints; a deleted one frees a place', async () => {
      const own = await t.account('limit')
      const ids: string[] = []
      for (let i = 0; i < 25; i++) {
        const res = await create(
          { url: `https://hooks.example.eu/${i}`, events: ['submission.sent'] },
          own.testKey,
        )
        assert.equal(res.statusCode, 201, res.body)
        ids.push(res.json().id)
      }
      const refused = await create(
        { url: 'https://hooks.example.eu/26', events: ['submission.sent'] },
        own.testKey,
      )
      assert.equal(refused.statusCode, 422)
      assert.equal(errorOf(refused).code, 'webhook_endpoint_limit_reached')
      // The other environment has its own 25.
      const live = await create(
        { url: 'https://hooks.example.eu/l', events: ['submission.sent'] },
        own.liveKey,
      )
      assert.equal(live.statusCode, 201)
      await t.request(own.testKey, { method: 'DELETE', url: `/v1/webhook_endpoints/${ids[0]}` })
      const again = await create(
        { url: 'https://hooks.example.eu/26', events: ['submission.sent'] },
        own.testKey,
      )
      assert.equal(again.statusCode, 201)
    })
  })

  describe('security: the SSRF guard (ALLOW_PRIVATE_NETWORK_URLS off)', () => {
    for (const [url, reason] of [
      ['https://127.0.0.1/hook', /127\.0\.0\.1 is a loopback address/],
      ['https://10.1.2.3/hook', /a private address/],
      ['https://192.168.0.10/hook', /a private address/],
      ['https://[::1]/hook', /loopback/],
      ['https://0x7f000001/hook', /127\.0\.0\.1 is a loopback address/],
      ['https://2130706433/hook', /loopback/],
      ['https://[::ffff:127.0.0.1]/hook', /loopback/],
      ['https://169.254.169.254/latest/meta-data/', /link-local/],
      ['https://[fd00:ec2::254]/', /unique-local/],
      ['https://168.63.129.16/', /cloud platform/],
      ['https://0.0.0.0/', /unspecified/],
      ['https://localhost/hook', /local host name/],
      ['https://api.localhost./hook', /local host name/],
      ['https://rebind.example.eu/hook', /rebind\.example\.eu resolves to 127\.0\.0\.1, a loopback address/],
      ['https://mixed.example.eu/hook', /resolves to 10\.0\.0\.8, a private address/],
      ['https://meta.example.eu/hook', /resolves to 169\.254\.169\.254/],
      ['https://nowhere.example.eu/hook', /could not be resolved/],
      ['http://hooks.example.eu/hook', /http: URLs are not allowed, only https:/],
      ['HTTP://169.254.169.254/', /http: URLs are not allowed/],
      ['ftp://hooks.example.eu/', /ftp: URLs are not allowed/],
      ['file:///etc/passwd', /file: URLs are not allowed/],
      ['javascript:alert(1)', /javascript: URLs are not allowed/],
      ['https://user:pw@hooks.example.eu/', /carries credentials/],
      ['not a url', /not a valid absolute URL/],
    ] as const) {
      it(`422 webhook_url_rejected for ${url.slice(0, 50)}`, async () => {
        const res = await create({ url, events: ['submission.sent'] })
        assert.equal(res.statusCode, 422, res.body)
        assert.equal(errorOf(res).code, 'webhook_url_rejected')
        assert.match(errorOf(res).message, reason)
      })
    }

    it('a refusal ALLOW_PRIVATE_NETWORK_URLS would lift says what to do, and its risk; others do not', async () => {
      for (const url of [
        'http://127.0.0.1:4000/hooks',
        'https://localhost/hook',
        'https://192.168.0.10/hook',
        'https://rebind.example.eu/hook',
        'http://hooks.example.eu/hook',
      ]) {
        const message = errorOf(await create({ url, events: ['submission.sent'] })).message
        assert.match(message, /ALLOW_PRIVATE_NETWORK_URLS=true/, url)
        assert.match(message, /never in production/, url)
        assert.match(message, /public https: URL through a tunnel/, url)
      }
      for (const url of ['ftp://hooks.example.eu/', 'https://user:pw@hooks.example.eu/', 'not a url']) {
        const message = errorOf(await create({ url, events: ['submission.sent'] })).message
        assert.doesNotMatch(message, /ALLOW_PRIVATE_NETWORK_URLS/, url)
      }
    })
  })

  describe('ALLOW_PRIVATE_NETWORK_URLS=true', () => {
    it('201 for http: on loopback; other schemes still refused', async () => {
      const dev = await startTestApp({ env: { ALLOW_PRIVATE_NETWORK_URLS: 'true' } })
      try {
        const k = (await dev.account()).testKey
        const ok = await dev.request(k, {
          method: 'POST',
          url: '/v1/webhook_endpoints',
          payload: { url: 'http://127.0.0.1:9/hook', events: ['submission.sent'] },
        })
        assert.equal(ok.statusCode, 201, ok.body)
        const ftp = await dev.request(k, {
          method: 'POST',
          url: '/v1/webhook_endpoints',
          payload: { url: 'ftp://127.0.0.1/hook', events: ['submission.sent'] },
        })
        assert.equal(errorOf(ftp).code, 'webhook_url_rejected')
      } finally {
        await dev.close()
      }
    })
  })
})
