import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { type ConsoleClient, signedInMember } from '../../../test/console/console-client.ts'
import { errorOf, startTestApp, type TestApp } from '../../../test/harness.ts'

describe('console members (/console/api/members)', () => {
  let t: TestApp
  let accountId: string
  let admin: ConsoleClient
  before(async () => {
    t = await startTestApp()
    accountId = (await t.account('Acme')).accountId
    admin = await signedInMember(t, accountId, { email: 'ada@example.eu' })
  })
  after(() => t.close())

  const add = (email: string, role = 'editor') =>
    admin.request({ method: 'POST', url: '/console/api/members', payload: { email, role } })

  describe('happy', () => {
    it('201 adds a member (address lower-cased) and lists it, oldest first', async () => {
      t.clock.advance(1000)
      const res = await add('Bob@Example.eu')
      assert.equal(res.statusCode, 201, res.body)
      const bob = res.json()
      assert.deepEqual(bob, {
        object: 'member',
        id: bob.id,
        email: 'bob@example.eu',
        role: 'editor',
        created_at: t.clock.now().toISOString(),
        last_sign_in_at: null,
      })
      const list = await admin.request({ method: 'GET', url: '/console/api/members' })
      assert.equal(list.statusCode, 200)
      assert.deepEqual(
        list.json().data.map((x: { email: string; role: string }) => [x.email, x.role]),
        [
          ['ada@example.eu', 'admin'],
          ['bob@example.eu', 'editor'],
        ],
      )
    })

    it('200 changes a role; the member sessions take it at once', async () => {
      const carol = await signedInMember(t, accountId, { role: 'editor', email: 'carol@example.eu' })
      assert.equal((await carol.request({ method: 'GET', url: '/console/api/members' })).statusCode, 403)
      const res = await admin.request({
        method: 'POST',
        url: `/console/api/members/${carol.memberId}/role`,
        payload: { role: 'admin' },
      })
      assert.equal(res.statusCode, 200)
      assert.equal(res.json().role, 'admin')
      assert.equal((await carol.request({ method: 'GET', url: '/console/api/members' })).statusCode, 200)
      assert.equal(
        (await carol.request({ method: 'GET', url: '/console/api/session' })).json().member.role,
        'admin',
      )
    })

    it('200 removes a member and ends their sessions; the address may be added again', async () => {
      const dan = await signedInMember(t, accountId, { role: 'editor', email: 'dan@example.eu' })
      const res = await admin.request({ method: 'POST', url: `/console/api/members/${dan.memberId}/remove` })
      assert.equal(res.statusCode, 200)
      assert.deepEqual(res.json(), { object: 'member', id: dan.memberId, removed: true })
      const after = await dan.request({ method: 'GET', url: '/v1/health' })
      assert.equal(after.statusCode, 401)
      assert.equal(errorOf(after).code, 'console_session_required')
      const list = await admin.request({ method: 'GET', url: '/console/api/members' })
      assert.ok(!list.json().data.some((x: { id: string }) => x.id === dan.memberId))
      assert.equal((await add('dan@example.eu')).statusCode, 201)
    })
  })

  describe('errors', () => {
    it('409 member_already_exists for an address already a member (any case)', async () => {
      const res = await add('ADA@example.eu', 'admin')
      assert.equal(res.statusCode, 409)
      assert.equal(errorOf(res).code, 'member_already_exists')
    })

    it('201 an internationalized address kept as written; 409 for its xn-- spelling; 422 for a bad domain', async () => {
      // docs/api.md#e-mail-addresses; the outbox (no SMTP_URL) accepts a non-ASCII local part too.
      const zoe = await add('Jörg@Müller-Bau.de')
      assert.equal(zoe.statusCode, 201, zoe.body)
      assert.equal(zoe.json().email, 'jörg@müller-bau.de')
      const again = await add('jörg@xn--mller-bau-q9a.de')
      assert.equal(again.statusCode, 409, again.body)
      const bad = await add('zoe@müller_bau.de')
      assert.equal(bad.statusCode, 422)
      assert.deepEqual(errorOf(bad), {
        type: 'invalid_request_error',
        code: 'invalid_request',
        message: 'email: the domain "müller_bau.de" is not a valid internationalized domain name.',
        param: 'email',
      })
    })

    it('409 last_admin removing or demoting the last admin; allowed once another admin exists', async () => {
      const solo = await t.account('Solo')
      const only = await signedInMember(t, solo.accountId, { email: 'only@example.eu' })
      for (const [url, payload] of [
        [`/console/api/members/${only.memberId}/remove`, undefined],
        [`/console/api/members/${only.memberId}/role`, { role: 'editor' }],
      ] as const) {
        const res = await only.request({ method: 'POST', url, ...(payload ? { payload } : {}) })
        assert.equal(res.statusCode, 409, url)
        assert.equal(errorOf(res).code, 'last_admin')
      }
      assert.equal(
        (await only.request({ method: 'GET', url: '/console/api/session' })).json().member.role,
        'admin',
      )
      const second = await only.request({
        method: 'POST',
        url: '/console/api/members',
        payload: { email: 'second@example.eu', role: 'admin' },
      })
      assert.equal(second.statusCode, 201)
      const demoted = await only.request({
        method: 'POST',
        url: `/console/api/members/${only.memberId}/role`,
        payload: { role: 'editor' },
      })
      assert.equal(demoted.statusCode, 200)
      assert.equal(demoted.json().role, 'editor')
    })

    it("404 for another account's member", async () => {
      const other = await t.account('Other')
      const stranger = await signedInMember(t, other.accountId)
      const res = await admin.request({
        method: 'POST',
        url: `/console/api/members/${stranger.memberId}/remove`,
      })
      assert.equal(res.statusCode, 404)
      assert.equal(errorOf(res).code, 'resource_not_found')
      assert.equal((await stranger.request({ method: 'GET', url: '/console/api/session' })).statusCode, 200)
    })
  })

  describe('security', () => {
    it('403 console_role_forbidden for an editor on every members route', async () => {
      const editor = await signedInMember(t, accountId, { role: 'editor' })
      for (const [url, payload] of [
        ['/console/api/members', { email: 'x@example.eu', role: 'admin' }],
        [`/console/api/members/${admin.memberId}/role`, { role: 'editor' }],
        [`/console/api/members/${admin.memberId}/remove`, undefined],
      ] as const) {
        const res = await editor.request({ method: 'POST', url, ...(payload ? { payload } : {}) })
        assert.equal(res.statusCode, 403, url)
        assert.equal(errorOf(res).code, 'console_role_forbidden')
      }
      assert.equal(
        (await admin.request({ method: 'GET', url: '/console/api/session' })).json().member.role,
        'admin',
      )
    })
  })
})
