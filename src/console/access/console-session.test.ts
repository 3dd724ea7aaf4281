import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { type ConsoleClient, signedInMember } from '../../../test/console/console-client.ts'
import { base64, createTemplateFor } from '../../../test/documents.ts'
import { a4 } from '../../../test/fixtures/pdfs.ts'
import { errorOf, startTestApp, type TestApp } from '../../../test/harness.ts'
import { CONSOLE_CSP } from '../shell/console-headers.ts'
import { SESSION_IDLE_MS, SESSION_MAX_MS } from './console-session-store.ts'

type Keys = Awaited<ReturnType<TestApp['account']>>

async function templateBody() {
  return {
    name: 'Made in the console',
    documents: [
      {
        pdf_base64: base64(await a4()),
        fields: [{ name: 'Sig', role: 'signer', areas: [{ page: 1, x: 0.1, y: 0.8, w: 0.3, h: 0.05 }] }],
      },
    ],
  }
}

describe('console sessions (cookie on /v1 and /console/api/session)', () => {
  let t: TestApp
  let a: Keys
  let b: Keys
  let admin: ConsoleClient
  let testTemplate: string
  let liveTemplate: string
  before(async () => {
    t = await startTestApp()
    a = await t.account('Acme')
    b = await t.account('Other')
    testTemplate = await createTemplateFor(t, a.testKey)
    liveTemplate = await createTemplateFor(t, a.liveKey)
    await createTemplateFor(t, b.testKey)
    admin = await signedInMember(t, a.accountId, { email: 'ada@example.eu' })
  })
  after(() => t.close())

  describe('happy', () => {
    it('200 GET /console/api/session: member, account, environment test, CSRF token, expiry', async () => {
      const res = await admin.request({ method: 'GET', url: '/console/api/session' })
      assert.equal(res.statusCode, 200)
      assert.deepEqual(res.json(), {
        object: 'console_session',
        member: { id: admin.memberId, email: 'ada@example.eu', role: 'admin' },
        account: { id: a.accountId, name: 'Acme' },
        environment: 'test',
        csrf_token: admin.csrfToken,
        expires_at: new Date(t.clock.epochMs() + SESSION_IDLE_MS).toISOString(),
      })
      assert.equal(res.headers['cache-control'], 'no-store')
      assert.equal(res.headers['content-security-policy'], CONSOLE_CSP)
      assert.equal(res.headers['x-frame-options'], 'DENY')
      assert.equal(res.headers['referrer-policy'], 'same-origin')
      assert.equal(res.headers['x-content-type-options'], 'nosniff')
    })

    it("GET /v1/templates with the cookie lists the session's account and environment only", async () => {
      const res = await admin.request({ method: 'GET', url: '/v1/templates' })
      assert.equal(res.statusCode, 200)
      assert.deepEqual(
        res.json().data.map((tpl: { id: string }) => tpl.id),
        [testTemplate],
      )
      assert.equal(res.headers['x-ratelimit-limit'], '100', "the test environment's limit")
    })

    it('switching to live switches the data; switching back restores it', async () => {
      const sw = await admin.request({
        method: 'POST',
        url: '/console/api/session/environment',
        payload: { environment: 'live' },
      })
      assert.equal(sw.statusCode, 200)
      assert.equal(sw.json().environment, 'live')
      const live = await admin.request({ method: 'GET', url: '/v1/templates' })
      assert.deepEqual(
        live.json().data.map((tpl: { id: string }) => tpl.id),
        [liveTemplate],
      )
      assert.equal(live.headers['x-ratelimit-limit'], '1000')
      assert.equal(
        (await admin.request({ method: 'GET', url: `/v1/templates/${testTemplate}` })).statusCode,
        404,
      )
      const back = await admin.request({
        method: 'POST',
        url: '/console/api/session/environment',
        payload: { environment: 'test' },
      })
      assert.equal(back.json().environment, 'test')
      assert.equal(
        (await admin.request({ method: 'GET', url: `/v1/templates/${testTemplate}` })).statusCode,
        200,
      )
    })

    it('201 a template POSTed with the cookie has created_via "ui"', async () => {
      const res = await admin.request({
        method: 'POST',
        url: '/v1/templates',
        payload: await templateBody(),
        headers: { 'idempotency-key': crypto.randomUUID() },
      })
      assert.equal(res.statusCode, 201, res.body)
      assert.equal(res.json().created_via, 'ui')
      const listed = await admin.request({ method: 'GET', url: '/v1/templates?created_via=ui' })
      assert.deepEqual(
        listed.json().data.map((tpl: { id: string }) => tpl.id),
        [res.json().id],
      )
      const byKey = await t.request(a.testKey, { method: 'GET', url: `/v1/templates/${testTemplate}` })
      assert.equal(byKey.json().created_via, 'api')
    })

    it('an Authorization header wins over the cookie', async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/v1/health',
        headers: { cookie: admin.cookie, authorization: `Bearer ${b.testKey}` },
      })
      assert.equal(res.statusCode, 200)
      assert.equal(res.json().account_id, b.accountId)
    })

    it("request logs record console calls under the member's id", async () => {
      const call = await admin.request({ method: 'GET', url: '/v1/health' })
      await t.deps.requestLogs.flush()
      const logs = await admin.request({
        method: 'GET',
        url: `/v1/request_logs?request_id=${call.headers['request-id']}`,
      })
      assert.equal(logs.statusCode, 200, logs.body)
      const [log] = logs.json().data
      assert.equal(log.key_id, admin.memberId)
      assert.equal(log.environment, 'test')
      assert.equal(log.status, 200)
      const byKey = await t.request(a.testKey, {
        method: 'GET',
        url: `/v1/request_logs?request_id=${call.headers['request-id']}`,
      })
      assert.equal(
        byKey.json().data[0].key_id,
        admin.memberId,
        'the same log, read with a key of the account',
      )
    })

    it('console calls leave no key activity (no route-day row under the member id)', async () => {
      await admin.request({ method: 'GET', url: '/v1/health' })
      await t.deps.keyActivity.flush()
      const rows = await t.deps.db
        .selectFrom('key_route_days')
        .selectAll()
        .where('key_id', '=', admin.memberId)
        .execute()
      assert.deepEqual(rows, [])
    })
  })

  describe('security', () => {
    it('403 csrf_token_invalid on a /v1 write without X-CSRF-Token, with a wrong one, or from a foreign Origin', async () => {
      const body = { url: 'https://hooks.example.eu/paraph', events: ['submission.completed'] }
      const cases = [
        admin.request({ method: 'POST', url: '/v1/webhook_endpoints', payload: body }, { csrf: false }),
        admin.request({
          method: 'POST',
          url: '/v1/webhook_endpoints',
          payload: body,
          headers: { 'x-csrf-token': `${admin.csrfToken.slice(0, -1)}x` },
        }),
        admin.request({
          method: 'POST',
          url: '/v1/webhook_endpoints',
          payload: body,
          headers: { origin: 'https://evil.example' },
        }),
        admin.request(
          { method: 'POST', url: '/console/api/session/environment', payload: { environment: 'live' } },
          { csrf: false },
        ),
      ]
      for (const res of await Promise.all(cases)) {
        assert.equal(res.statusCode, 403, res.body)
        assert.equal(errorOf(res).code, 'csrf_token_invalid')
      }
      const endpoints = await t.request(a.testKey, { method: 'GET', url: '/v1/webhook_endpoints' })
      assert.deepEqual(endpoints.json().data, [], 'nothing was created')
      const session = await admin.request({ method: 'GET', url: '/console/api/session' })
      assert.equal(session.json().environment, 'test', 'the environment did not change')
    })

    it("a write from PUBLIC_URL's own Origin with the token passes", async () => {
      const res = await admin.request({
        method: 'POST',
        url: '/console/api/session/environment',
        payload: { environment: 'test' },
        headers: { origin: 'http://127.0.0.1:8080' },
      })
      assert.equal(res.statusCode, 200)
    })

    it('401 console_session_required for an unknown cookie, on /v1 and /console/api', async () => {
      for (const url of ['/v1/templates', '/console/api/session']) {
        const res = await t.app.inject({
          method: 'GET',
          url,
          headers: { cookie: `paraph_console=${'x'.repeat(43)}` },
        })
        assert.equal(res.statusCode, 401)
        assert.equal(errorOf(res).code, 'console_session_required')
      }
    })

    it('401 missing_api_key on /v1 with neither key nor cookie; console_session_required on /console/api', async () => {
      const v1 = await t.app.inject({ method: 'GET', url: '/v1/templates' })
      assert.equal(errorOf(v1).code, 'missing_api_key')
      const own = await t.app.inject({ method: 'GET', url: '/console/api/session' })
      assert.equal(own.statusCode, 401)
      assert.equal(errorOf(own).code, 'console_session_required')
      assert.equal(own.headers['cache-control'], 'no-store')
      assert.equal(own.headers['content-security-policy'], CONSOLE_CSP)
    })

    it('an API key does not open /console/api', async () => {
      const res = await t.request(a.testKey, { method: 'GET', url: '/console/api/session' })
      assert.equal(res.statusCode, 401)
      assert.equal(errorOf(res).code, 'console_session_required')
    })

    it('403 console_role_forbidden on a webhook-endpoint write by an editor; reads are allowed', async () => {
      const editor = await signedInMember(t, a.accountId, { role: 'editor' })
      const res = await editor.request({
        method: 'POST',
        url: '/v1/webhook_endpoints',
        payload: { url: 'https://hooks.example.eu/paraph', events: ['submission.completed'] },
      })
      assert.equal(res.statusCode, 403)
      assert.equal(errorOf(res).code, 'console_role_forbidden')
      assert.equal((await editor.request({ method: 'GET', url: '/v1/webhook_endpoints' })).statusCode, 200)
      assert.equal((await editor.request({ method: 'GET', url: '/v1/templates' })).statusCode, 200)
    })
  })

  describe('expiry', () => {
    it('slides with use, ends 12 h after the last use: 401 console_session_required', async () => {
      const member = await signedInMember(t, a.accountId)
      t.clock.advance(SESSION_IDLE_MS - 60_000)
      assert.equal((await member.request({ method: 'GET', url: '/v1/health' })).statusCode, 200)
      t.clock.advance(SESSION_IDLE_MS - 60_000)
      assert.equal((await member.request({ method: 'GET', url: '/v1/health' })).statusCode, 200, 'slid')
      t.clock.advance(SESSION_IDLE_MS)
      const res = await member.request({ method: 'GET', url: '/v1/health' })
      assert.equal(res.statusCode, 401)
      assert.equal(errorOf(res).code, 'console_session_required')
    })

    it('ends 7 days after sign-in however often it is used', async () => {
      const member = await signedInMember(t, a.accountId)
      const start = t.clock.epochMs()
      while (t.clock.epochMs() + SESSION_IDLE_MS / 2 < start + SESSION_MAX_MS) {
        t.clock.advance(SESSION_IDLE_MS / 2)
        assert.equal((await member.request({ method: 'GET', url: '/console/api/session' })).statusCode, 200)
      }
      t.clock.set(new Date(start + SESSION_MAX_MS))
      const res = await member.request({ method: 'GET', url: '/console/api/session' })
      assert.equal(res.statusCode, 401)
      assert.equal(errorOf(res).code, 'console_session_required')
    })
  })

  describe('sign-out', () => {
    it('200 signed_out, clears the cookie, and the session stops working', async () => {
      const member = await signedInMember(t, a.accountId)
      const out = await member.request({ method: 'POST', url: '/console/api/sign_out' })
      assert.equal(out.statusCode, 200)
      assert.deepEqual(out.json(), { object: 'console_session', signed_out: true })
      assert.match(
        String(out.headers['set-cookie']),
        /^paraph_console=; Path=\/; Max-Age=0; HttpOnly; SameSite=Lax$/,
      )
      const res = await member.request({ method: 'GET', url: '/v1/health' })
      assert.equal(res.statusCode, 401)
      assert.equal(errorOf(res).code, 'console_session_required')
    })
  })
})
