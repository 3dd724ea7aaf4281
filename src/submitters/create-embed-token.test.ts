import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { SignJWT } from 'jose'
import { startTestApp, type TestApp } from '../../test/harness.ts'
import {
  type Created,
  createSubmission,
  everyTypeBody,
  FIRST_VALUES,
  refused,
  signer,
} from '../../test/signing.ts'

const SECOND = 1000
type Who = Created['submitters'][number]

describe('POST /v1/submitters/{id}/embed_token', () => {
  let t: TestApp
  let keys: Awaited<ReturnType<TestApp['account']>>
  before(async () => {
    t = await startTestApp()
    keys = await t.account()
  })
  after(() => t.close())

  const issue = (id: string, body: unknown = {}, key = keys.testKey) =>
    t.request(key, {
      method: 'POST',
      url: `/v1/submitters/${id}/embed_token`,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    })
  const create = async (roles = ['first', 'second']) =>
    createSubmission(t, keys.testKey, await everyTypeBody(roles))
  /** The submitter as reached through a new embed_src. */
  const through = (who: Who, embedSrc: string): Who => ({ ...who, embed_src: embedSrc })
  const form = async (who: Who) => signer(t, who, 'form', undefined, 'embed')

  describe('happy', () => {
    it('200 by default for 1 hour: an embed URL that opens the signer’s form', async () => {
      const created = await create()
      const who = created.submitters[0]!
      t.clock.advance(250)
      const res = await issue(who.id)
      assert.equal(res.statusCode, 200, res.body)
      const body = res.json()
      assert.deepEqual(Object.keys(body).sort(), [
        'embed_src',
        'expires_at',
        'object',
        'submission_id',
        'submitter_id',
      ])
      assert.equal(body.object, 'embed_token')
      assert.equal(body.submitter_id, who.id)
      assert.equal(body.submission_id, created.id)
      const now = t.clock.now().getTime()
      assert.equal(body.expires_at, new Date(Math.floor(now / SECOND) * SECOND + 3600 * SECOND).toISOString())
      assert.match(body.embed_src, /^http:\/\/127\.0\.0\.1:\d+\/embed\/[\w-]+\.[\w-]+\.[\w-]+$/)
      assert.notEqual(body.embed_src, who.embed_src)
      const res2 = await form(through(who, body.embed_src))
      assert.equal(res2.statusCode, 200, res2.body)
      assert.equal(res2.json().submitter.id, who.id)
      assert.equal(res2.json().state, 'ready')
    })

    for (const ttl of [60, 2_592_000]) {
      it(`200 with ttl_seconds ${ttl}: valid until then, 401 invalid_signing_token after`, async () => {
        const created = await create()
        const who = created.submitters[1]!
        t.clock.set(new Date(Math.ceil(t.clock.now().getTime() / SECOND) * SECOND))
        const body = (await issue(who.id, { ttl_seconds: ttl })).json()
        assert.equal(Date.parse(body.expires_at) - t.clock.now().getTime(), ttl * SECOND)
        t.clock.advance(ttl * SECOND - SECOND)
        assert.equal((await form(through(who, body.embed_src))).json().state, 'waiting_for_others')
        t.clock.advance(SECOND)
        refused(await form(through(who, body.embed_src)), 401, 'invalid_signing_token', /expired/)
      })
    }

    it('200 for a finished signer or an ended submission: the token shows that state', async () => {
      const created = await create()
      const [first, second] = created.submitters as [Who, Who]
      assert.equal((await signer(t, first, 'sign', { values: FIRST_VALUES })).statusCode, 200)
      assert.equal((await signer(t, second, 'decline', { reason: 'No.' })).statusCode, 200)
      const states = []
      for (const who of [first, second]) {
        const res = await issue(who.id, { ttl_seconds: 600 })
        assert.equal(res.statusCode, 200, res.body)
        states.push((await form(through(who, res.json().embed_src))).json().state)
      }
      assert.deepEqual(states, ['declined', 'declined'])
      const cancelled = await create(['first'])
      await t.request(keys.testKey, { method: 'DELETE', url: `/v1/submissions/${cancelled.id}` })
      const res = await issue(cancelled.submitters[0]!.id)
      assert.equal(
        (await form(through(cancelled.submitters[0]!, res.json().embed_src))).json().state,
        'cancelled',
      )
    })

    it('earlier tokens are not revoked: the creation’s embed_src still works', async () => {
      const created = await create(['first'])
      assert.equal((await issue(created.submitters[0]!.id)).statusCode, 200)
      assert.equal((await form(created.submitters[0]!)).statusCode, 200)
    })
  })

  describe('errors', () => {
    it('422 invalid_request for a TTL out of 60 … 2592000, not an integer, or another key', async () => {
      const created = await create(['first'])
      for (const body of [
        { ttl_seconds: 59 },
        { ttl_seconds: 2_592_001 },
        { ttl_seconds: 90.5 },
        { ttl_seconds: '600' },
        { ttl_seconds: null },
        { ttl: 600 },
        { submitter_id: created.submitters[0]!.id },
      ]) {
        refused(await issue(created.submitters[0]!.id, body), 422, 'invalid_request')
      }
    })

    it('404 resource_not_found for an unknown id, 400 invalid_id for a malformed one', async () => {
      refused(await issue(`sbm_${'Z'.repeat(24)}`), 404, 'resource_not_found')
      refused(await issue('sbm_short'), 400, 'invalid_id')
    })

    it('500 token_issue_failed when the token cannot be signed, with nothing internal in the message', async () => {
      const created = await create(['first'])
      const keyring = t.deps.keys as { embed: unknown }
      const embed = keyring.embed
      keyring.embed = 'not a key'
      try {
        const res = await issue(created.submitters[0]!.id)
        refused(res, 500, 'token_issue_failed')
        assert.doesNotMatch(res.body, /TypeError|Uint8Array|at /)
      } finally {
        keyring.embed = embed
      }
    })
  })

  describe('security', () => {
    it("404 resource_not_found for another account's or environment's submitter, identical to an unknown id", async () => {
      const created = await create(['first'])
      const id = created.submitters[0]!.id
      const other = await t.account('other')
      const unknownId = `sbm_${'Z'.repeat(24)}`
      for (const key of [other.testKey, other.liveKey, keys.liveKey]) {
        const foreign = await issue(id, {}, key)
        refused(foreign, 404, 'resource_not_found')
        assert.equal(
          foreign.body.split(id).join('<id>'),
          (await issue(unknownId, {}, key)).body.split(unknownId).join('<id>'),
        )
      }
    })

    it('401 invalid_signing_token for a token of another algorithm, issuer or audience, on every signer route', async () => {
      const created = await create(['first'])
      const who = created.submitters[0]!
      const claims = { sid: created.id }
      const sign = (alg: string, issuer = 'paraph', audience = 'paraph-signing') =>
        new SignJWT(claims)
          .setProtectedHeader({ alg })
          .setSubject(who.id)
          .setIssuer(issuer)
          .setAudience(audience)
          .setExpirationTime(Math.floor(t.clock.now().getTime() / SECOND) + 3600)
          .sign(t.deps.keys.embed)
      const forged = [
        await sign('HS512'),
        await sign('HS256', 'someone'),
        await sign('HS256', 'paraph', 'api'),
      ]
      for (const token of forged) {
        const as = through(who, `http://127.0.0.1/embed/${token}`)
        refused(await form(as), 401, 'invalid_signing_token')
        refused(await signer(t, as, 'sign', { values: FIRST_VALUES }, 'embed'), 401, 'invalid_signing_token')
        refused(await signer(t, as, 'email_2fa/send', undefined, 'embed'), 401, 'invalid_signing_token')
      }
      const genuine = await sign('HS256')
      assert.equal((await form(through(who, `http://127.0.0.1/embed/${genuine}`))).statusCode, 200)
    })
  })
})
