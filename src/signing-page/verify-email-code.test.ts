import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startTestApp, type TestApp } from '../../test/harness.ts'
import {
  type Created,
  createSubmission,
  eventsOf,
  everyTypeBody,
  FIRST_VALUES,
  guardedBody,
  mailedCode,
  refused,
  signer,
  signerPath,
  submitterRow,
  verifiedSession,
} from '../../test/signing.ts'

const SECOND = 1000
const MINUTE = 60 * SECOND
const HOUR = 60 * MINUTE

/** The attributes of a Set-Cookie value, lower-cased names. */
function cookieAttributes(header: unknown): { pair: string; attributes: Map<string, string> } {
  const [pair, ...rest] = String(header)
    .split(';')
    .map((p) => p.trim())
  const attributes = new Map(
    rest.map((a) => {
      const [name, value = ''] = a.split('=')
      return [name!.toLowerCase(), value] as const
    }),
  )
  return { pair: pair!, attributes }
}

describe('POST /s/{slug}/email_2fa/verify and /embed/{jwt}/email_2fa/verify', () => {
  let t: TestApp
  let key: string
  before(async () => {
    t = await startTestApp()
    key = (await t.account()).testKey
  })
  after(() => t.close())

  const guarded = async (roles = ['first'], which = [0]): Promise<Created> =>
    createSubmission(t, key, await guardedBody(roles, which))
  const sendCode = async (who: Created['submitters'][number]) => {
    const res = await signer(t, who, 'email_2fa/send')
    assert.equal(res.statusCode, 200, res.body)
    return mailedCode(t, who.id)
  }
  const verify = (who: Created['submitters'][number], code: string, via: 'link' | 'embed' = 'link') =>
    signer(t, who, 'email_2fa/verify', { code }, via)
  const wrongFor = (code: string) => (code === '000000' ? '111111' : '000000')

  describe('happy', () => {
    for (const via of ['link', 'embed'] as const) {
      it(`200 by ${via}: a session in the body and an HttpOnly SameSite=Lax cookie for this link's path only`, async () => {
        const created = await guarded()
        const who = created.submitters[0]!
        const res = await verify(who, await sendCode(who), via)
        assert.equal(res.statusCode, 200, res.body)
        const body = res.json()
        assert.equal(body.object, 'signer_session')
        assert.equal(body.expires_at, new Date(t.clock.now().getTime() + 2 * HOUR).toISOString())
        assert.match(body.session, new RegExp(`^${who.id}\\.\\d+\\.[A-Za-z0-9_-]{43}$`))
        const { pair, attributes } = cookieAttributes(res.headers['set-cookie'])
        assert.equal(pair, `paraph_signer_session=${body.session}`)
        assert.equal(attributes.get('path'), signerPath(who, via))
        assert.equal(attributes.get('max-age'), String(2 * 60 * 60))
        assert.ok(attributes.has('httponly'))
        assert.equal(attributes.get('samesite'), 'Lax')
        assert.equal(attributes.has('secure'), false, 'SIGNING_URL is http here')
        assert.equal(res.headers['cache-control'], 'no-store')
      })
    }

    it('the cookie or the Paraph-Signer-Session header unlocks the documents and the acts; without, they stay withheld', async () => {
      const created = await guarded()
      const who = created.submitters[0]!
      const withheld = (await signer(t, who, 'form')).json()
      assert.deepEqual([withheld.state, withheld.documents, withheld.fields], ['email_2fa_required', [], []])
      const { session, cookie } = await verifiedSession(t, who, 'embed')
      refused(await signer(t, who, 'open'), 403, 'email_2fa_required')
      assert.equal((await signer(t, who, 'form')).json().state, 'email_2fa_required')
      for (const [via, headers] of [
        ['embed', { 'paraph-signer-session': session }],
        ['link', { 'paraph-signer-session': session }],
        ['link', { cookie: `other=1; ${cookie}` }],
      ] as const) {
        const form = (await signer(t, who, 'form', undefined, via, headers)).json()
        assert.equal(form.state, 'ready', `${via} ${Object.keys(headers)}`)
        assert.equal(form.documents.length, 1)
        assert.ok(form.fields.length > 0)
      }
      const opened = await signer(t, who, 'open', undefined, 'embed', { 'paraph-signer-session': session })
      assert.equal(opened.statusCode, 200, opened.body)
      assert.equal(opened.json().documents.length, 1)
      const signed = await signer(t, who, 'sign', { values: FIRST_VALUES }, 'link', { cookie })
      assert.equal(signed.statusCode, 200, signed.body)
      assert.deepEqual([signed.json().state, signed.json().documents.length], ['signed', 1])
    })

    it('records the verification on the submitter and in the journal, with address and user agent', async () => {
      const created = await guarded()
      const who = created.submitters[0]!
      const code = await sendCode(who)
      t.clock.advance(3 * MINUTE)
      assert.equal((await verify(who, code, 'embed')).statusCode, 200)
      const at = t.clock.now().toISOString()
      assert.equal((await submitterRow(t, who.id)).email_2fa_verified_at, at)
      const events = (await eventsOf(t, created.id)).filter((e) => e.type === 'submitter.email_2fa_verified')
      assert.equal(events.length, 1)
      assert.deepEqual(
        [events[0]!.submitter_id, events[0]!.actor_ip, events[0]!.actor_user_agent, events[0]!.created_at],
        [who.id, '203.0.113.7', 'SignerBrowser/1.0', at],
      )
      assert.deepEqual(JSON.parse(events[0]!.data), { submitter_id: who.id, via: 'embed', at })
    })

    it('200 just before the 10 minutes are up', async () => {
      const created = await guarded()
      const who = created.submitters[0]!
      const code = await sendCode(who)
      t.clock.advance(10 * MINUTE - 1)
      assert.equal((await verify(who, code)).statusCode, 200)
    })
  })

  describe('errors', () => {
    it('422 invalid_code for a wrong code, counting down the tries', async () => {
      const created = await guarded()
      const who = created.submitters[0]!
      const code = await sendCode(who)
      refused(await verify(who, wrongFor(code)), 422, 'invalid_code', /4 tries left/)
      refused(await verify(who, wrongFor(code), 'embed'), 422, 'invalid_code', /3 tries left/)
    })

    it('after 5 wrong codes the code is void: 422 code_expired even with the right one, until a new code is sent', async () => {
      const created = await guarded()
      const who = created.submitters[0]!
      const code = await sendCode(who)
      for (let i = 1; i <= 4; i++) refused(await verify(who, wrongFor(code)), 422, 'invalid_code')
      refused(await verify(who, wrongFor(code), 'embed'), 422, 'invalid_code', /last try/)
      refused(await verify(who, code), 422, 'code_expired')
      refused(await verify(who, code, 'embed'), 422, 'code_expired')
      assert.equal((await submitterRow(t, who.id)).email_2fa_verified_at, null)
      t.clock.advance(30 * SECOND)
      const fresh = await sendCode(who)
      assert.equal((await verify(who, fresh)).statusCode, 200)
    })

    it('422 code_expired once 10 minutes have passed, even with the right code', async () => {
      const created = await guarded()
      const who = created.submitters[0]!
      const code = await sendCode(who)
      t.clock.advance(10 * MINUTE)
      refused(await verify(who, code), 422, 'code_expired', /expired/)
      refused(await verify(who, code, 'embed'), 422, 'code_expired')
    })

    it('a code is used once: the second use is 422 code_expired', async () => {
      const created = await guarded()
      const who = created.submitters[0]!
      const code = await sendCode(who)
      assert.equal((await verify(who, code)).statusCode, 200)
      refused(await verify(who, code, 'embed'), 422, 'code_expired', /already used/)
    })

    it('422 code_expired when no code was ever sent', async () => {
      const created = await guarded()
      refused(await verify(created.submitters[0]!, '123456'), 422, 'code_expired')
    })

    it('422 invalid_request for a code that is not 6 digits or another key; no try is counted', async () => {
      const created = await guarded()
      const who = created.submitters[0]!
      const code = await sendCode(who)
      for (const body of [{}, { code: '12345' }, { code: '1234567' }, { code: 'abcdef' }, { code, x: 1 }]) {
        refused(await signer(t, who, 'email_2fa/verify', body), 422, 'invalid_request')
      }
      const row = await t.deps.db
        .selectFrom('email_2fa_codes')
        .select('wrong_tries')
        .where('submitter_id', '=', who.id)
        .executeTakeFirstOrThrow()
      assert.equal(Number(row.wrong_tries), 0)
    })

    it('409 email_2fa_not_required for a signer created without require_email_2fa', async () => {
      const created = await createSubmission(t, key, await everyTypeBody(['first']))
      refused(await verify(created.submitters[0]!, '123456', 'embed'), 409, 'email_2fa_not_required')
    })

    it('410 submission_not_active once the submission is cancelled', async () => {
      const created = await guarded()
      const code = await sendCode(created.submitters[0]!)
      await t.request(key, { method: 'DELETE', url: `/v1/submissions/${created.id}` })
      refused(await verify(created.submitters[0]!, code), 410, 'submission_not_active')
    })
  })

  describe('security', () => {
    it("one signer's session never unlocks another's, in the header or as a cookie", async () => {
      const created = await guarded(['first', 'second'], [0, 1])
      const [ann, bob] = created.submitters as [Created['submitters'][number], Created['submitters'][number]]
      const { session, cookie } = await verifiedSession(t, ann)
      const tries: Array<Record<string, string>> = [{ 'paraph-signer-session': session }, { cookie }]
      for (const headers of tries) {
        const form = (await signer(t, bob, 'form', undefined, 'link', headers)).json()
        assert.deepEqual([form.state, form.documents], ['email_2fa_required', []])
        refused(await signer(t, bob, 'open', undefined, 'embed', headers), 403, 'email_2fa_required')
      }
    })

    it('an edited, forged or expired session unlocks nothing', async () => {
      const created = await guarded()
      const who = created.submitters[0]!
      const { session } = await verifiedSession(t, who)
      const [id, exp, mac] = session.split('.')
      const later = `${id}.${Number(exp) + 86_400}.${mac}`
      const flipped = `${id}.${exp}.${mac!.slice(0, -2)}${mac!.endsWith('AA') ? 'BB' : 'AA'}`
      const otherId = `${id!.slice(0, -1)}${id!.endsWith('Z') ? 'Y' : 'Z'}.${exp}.${mac}`
      for (const value of [later, flipped, `${session}.x`, 'garbage', otherId]) {
        const form = (
          await signer(t, who, 'form', undefined, 'link', { 'paraph-signer-session': value })
        ).json()
        assert.equal(form.state, 'email_2fa_required', value)
      }
      t.clock.advance(2 * HOUR)
      const form = (
        await signer(t, who, 'form', undefined, 'link', { 'paraph-signer-session': session })
      ).json()
      assert.deepEqual([form.state, form.documents], ['email_2fa_required', []])
    })

    it('an ended submission shows its ended state, with the documents still withheld without a session', async () => {
      const created = await guarded()
      await t.request(key, { method: 'DELETE', url: `/v1/submissions/${created.id}` })
      for (const via of ['link', 'embed'] as const) {
        const form = (await signer(t, created.submitters[0]!, 'form', undefined, via)).json()
        assert.deepEqual([form.state, form.documents, form.fields], ['cancelled', [], []])
        const opened = await signer(t, created.submitters[0]!, 'open', undefined, via)
        assert.equal(opened.statusCode, 200)
        assert.deepEqual([opened.json().state, opened.json().documents], ['cancelled', []])
      }
    })

    it('Secure is added when SIGNING_URL is https', async () => {
      const secure = await startTestApp({ env: { SIGNING_URL: 'https://sign.example.eu' } })
      try {
        const owner = (await secure.account()).testKey
        const created = await createSubmission(secure, owner, await guardedBody(['first'], [0]))
        const who = created.submitters[0]!
        assert.equal((await signer(secure, who, 'email_2fa/send')).statusCode, 200)
        const res = await signer(secure, who, 'email_2fa/verify', { code: await mailedCode(secure, who.id) })
        assert.equal(res.statusCode, 200, res.body)
        const { attributes } = cookieAttributes(res.headers['set-cookie'])
        assert.ok(attributes.has('secure'))
        assert.ok(attributes.has('httponly'))
        assert.equal(attributes.get('samesite'), 'Lax')
      } finally {
        await secure.close()
      }
    })
  })
})
