import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { type ConsoleClient, signedInMember } from '../../../test/console/console-client.ts'
import { errorOf, startTestApp, type TestApp } from '../../../test/harness.ts'

describe('console API keys (/console/api/keys)', () => {
  let t: TestApp
  let accountId: string
  let other: string
  let admin: ConsoleClient
  before(async () => {
    t = await startTestApp()
    accountId = (await t.account('Acme')).accountId
    other = (await t.account('Other')).accountId
    admin = await signedInMember(t, accountId)
  })
  after(() => t.close())

  describe('happy', () => {
    it("lists the session environment's keys with a 12-character prefix and no secret", async () => {
      const res = await admin.request({ method: 'GET', url: '/console/api/keys' })
      assert.equal(res.statusCode, 200)
      assert.equal(res.headers['cache-control'], 'no-store')
      const { object, data } = res.json()
      assert.equal(object, 'list')
      assert.equal(data.length, 1, 'the test key only, not the live one')
      assert.deepEqual(Object.keys(data[0]).sort(), [
        'created_at',
        'environment',
        'id',
        'last_used_at',
        'name',
        'object',
        'prefix',
        'revoked_at',
      ])
      assert.equal(data[0].environment, 'test')
      assert.match(data[0].prefix, /^sk_test_[0-9A-Za-z]{4}$/)
    })

    it('201 creates a working key, its secret in this answer only; revoking it stops it at once (401)', async () => {
      const created = await admin.request({ method: 'POST', url: '/console/api/keys', payload: {} })
      assert.equal(created.statusCode, 201, created.body)
      const key = created.json()
      assert.match(key.secret, /^sk_test_[0-9A-Za-z]{32}$/)
      assert.equal(key.prefix, key.secret.slice(0, 12))
      assert.equal(key.revoked_at, null)
      const health = await t.request(key.secret, { method: 'GET', url: '/v1/health' })
      assert.equal(health.statusCode, 200)
      assert.equal(health.json().account_id, accountId)

      const listed = await admin.request({ method: 'GET', url: '/console/api/keys' })
      assert.ok(listed.json().data.some((k: { id: string }) => k.id === key.id))
      assert.ok(!listed.body.includes(key.secret), 'the list never shows a secret')

      const revoked = await admin.request({ method: 'POST', url: `/console/api/keys/${key.id}/revoke` })
      assert.equal(revoked.statusCode, 200)
      assert.equal(revoked.json().revoked_at, t.clock.now().toISOString())
      assert.ok(!revoked.body.includes(key.secret))
      // At once in this process (its key cache forgets the key), with no clock moved.
      const refused = await t.request(key.secret, { method: 'GET', url: '/v1/health' })
      assert.equal(refused.statusCode, 401)
      assert.equal(errorOf(refused).code, 'invalid_api_key')
      const again = await admin.request({ method: 'POST', url: `/console/api/keys/${key.id}/revoke` })
      assert.equal(again.json().revoked_at, revoked.json().revoked_at, 'revoking twice changes nothing')
    })

    it('201 names a key at creation (trimmed); renames it and removes its name; no body makes one unnamed', async () => {
      const created = await admin.request({
        method: 'POST',
        url: '/console/api/keys',
        payload: { name: '  Billing backend ' },
      })
      assert.equal(created.statusCode, 201, created.body)
      const key = created.json()
      assert.equal(key.name, 'Billing backend')
      const listed = (await admin.request({ method: 'GET', url: '/console/api/keys' })).json().data
      assert.equal(listed.find((k: { id: string }) => k.id === key.id).name, 'Billing backend')

      const rename = (name: string | null) =>
        admin.request({ method: 'POST', url: `/console/api/keys/${key.id}/name`, payload: { name } })
      const renamed = await rename('Nightly export')
      assert.equal(renamed.statusCode, 200, renamed.body)
      assert.equal(renamed.json().name, 'Nightly export')
      assert.ok(!renamed.body.includes(key.secret))
      assert.equal((await rename('   ')).json().name, null, 'blank is no name')
      assert.equal((await rename('x'.repeat(100))).json().name, 'x'.repeat(100))
      assert.equal((await rename(null)).json().name, null)

      const bare = await admin.request({ method: 'POST', url: '/console/api/keys' })
      assert.equal(bare.statusCode, 201, bare.body)
      assert.equal(bare.json().name, null)
    })

    it('creates live keys once the session is switched to live', async () => {
      const live = await signedInMember(t, accountId)
      await live.request({
        method: 'POST',
        url: '/console/api/session/environment',
        payload: { environment: 'live' },
      })
      const created = await live.request({ method: 'POST', url: '/console/api/keys' })
      assert.equal(created.statusCode, 201)
      assert.match(created.json().secret, /^sk_live_/)
      assert.ok(
        (await live.request({ method: 'GET', url: '/console/api/keys' }))
          .json()
          .data.every((k: { environment: string }) => k.environment === 'live'),
      )
    })
  })

  describe('errors', () => {
    it("404 resource_not_found revoking another account's key or one of the other environment", async () => {
      const foreign = (
        await t.deps.db.selectFrom('api_keys').select('id').where('account_id', '=', other).execute()
      )[0]!.id
      const live = (
        await t.deps.db
          .selectFrom('api_keys')
          .select('id')
          .where('account_id', '=', accountId)
          .where('environment', '=', 'live')
          .execute()
      )[0]!.id
      for (const id of [foreign, live]) {
        const res = await admin.request({ method: 'POST', url: `/console/api/keys/${id}/revoke` })
        assert.equal(res.statusCode, 404)
        assert.equal(errorOf(res).code, 'resource_not_found')
      }
      const untouched = await t.deps.db
        .selectFrom('api_keys')
        .select('revoked_at')
        .where('id', 'in', [foreign, live])
        .execute()
      assert.deepEqual(untouched, [{ revoked_at: null }, { revoked_at: null }])
    })

    it('422 invalid_request for a name over 100 characters, with a control character, or an unknown key', async () => {
      const key = (await admin.request({ method: 'GET', url: '/console/api/keys' })).json().data[0].id
      for (const payload of [{ name: 'x'.repeat(101) }, { name: 'a\nb' }, { label: 'x' }]) {
        const created = await admin.request({ method: 'POST', url: '/console/api/keys', payload })
        assert.equal(created.statusCode, 422, JSON.stringify(payload))
        assert.equal(errorOf(created).code, 'invalid_request')
        const renamed = await admin.request({ method: 'POST', url: `/console/api/keys/${key}/name`, payload })
        assert.equal(renamed.statusCode, 422, JSON.stringify(payload))
      }
      const other = await admin.request({
        method: 'POST',
        url: `/console/api/keys/key_${'Z'.repeat(24)}/name`,
        payload: { name: 'x' },
      })
      assert.equal(other.statusCode, 404)
      assert.equal(errorOf(other).code, 'resource_not_found')
    })
  })

  describe('security', () => {
    it('403 console_role_forbidden for an editor on every keys route', async () => {
      const editor = await signedInMember(t, accountId, { role: 'editor' })
      const key = (await admin.request({ method: 'GET', url: '/console/api/keys' })).json().data[0].id
      for (const [method, url] of [
        ['GET', '/console/api/keys'],
        ['POST', '/console/api/keys'],
        ['POST', `/console/api/keys/${key}/revoke`],
        ['POST', `/console/api/keys/${key}/name`],
      ] as const) {
        const res = await editor.request({ method, url })
        assert.equal(res.statusCode, 403, url)
        assert.equal(errorOf(res).code, 'console_role_forbidden')
      }
    })

    it('403 csrf_token_invalid creating a key without the token', async () => {
      const res = await admin.request({ method: 'POST', url: '/console/api/keys' }, { csrf: false })
      assert.equal(res.statusCode, 403)
      assert.equal(errorOf(res).code, 'csrf_token_invalid')
    })
  })
})
