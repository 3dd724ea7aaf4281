import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { SignJWT } from 'jose'
import { base64, createTemplateFor, post } from '../../test/documents.ts'
import { a4 } from '../../test/fixtures/pdfs.ts'
import { errorOf, startTestApp, type TestApp } from '../../test/harness.ts'
import { issueEmbedToken } from '../submissions/signing-credentials.ts'

const DAY = 24 * 60 * 60 * 1000
type Created = {
  id: string
  submitters: Array<{ id: string; email: string; signing_url: string; embed_src: string }>
}
type Field = { name: string; role: string; areas: Array<Record<string, number>>; value: unknown }

const near = (actual: number, expected: number, what: string) =>
  assert.ok(Math.abs(actual - expected) < 0.002, `${what}: ${actual} is not ≈ ${expected}`)
const lastSegment = (url: string) => new URL(url).pathname.split('/').pop()!
const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')

/** Two signers in preserved order; the first one's area in points (docs/api.md#field-areas item 7). */
async function twoSigners(extra: Record<string, unknown> = {}, page = 1) {
  const area = (x: number) => ({ page, x, y: 716, w: 178, h: 42 })
  return {
    documents: [
      {
        name: 'Contract',
        pdf_base64: base64(await a4()),
        fields: [
          { name: 'First signature', type: 'signature', role: 'first', areas: [area(357)] },
          { name: 'Second signature', type: 'signature', role: 'second', areas: [area(60)] },
        ],
      },
    ],
    submitters: [
      { role: 'first', email: 'ann@example.eu', name: 'Ann' },
      { role: 'second', email: 'bob@example.eu' },
    ],
    ...extra,
  }
}

describe('GET /s/{slug}/form and GET /embed/{jwt}/form', () => {
  let t: TestApp
  let keys: Awaited<ReturnType<TestApp['account']>>

  const create = async (body: unknown, url = '/v1/submissions/from_pdf'): Promise<Created> => {
    const res = await post(t, keys.testKey, url, body)
    assert.equal(res.statusCode, 201, res.body)
    return res.json()
  }
  const get = (url: string) => t.app.inject({ method: 'GET', url })
  const bySlug = (s: Created['submitters'][number]) => get(`/s/${lastSegment(s.signing_url)}/form`)
  const byJwt = (s: Created['submitters'][number]) => get(`/embed/${lastSegment(s.embed_src)}/form`)
  const stateOf = async (url: Promise<{ statusCode: number; body: string; json(): { state: string } }>) => {
    const res = await url
    assert.equal(res.statusCode, 200, res.body)
    return res.json().state
  }
  const refuse = async (path: string, code: string, status: number) => {
    const res = await get(path)
    assert.equal(res.statusCode, status, res.body)
    assert.equal(errorOf(res).code, code)
  }

  before(async () => {
    t = await startTestApp()
    keys = await t.account()
  })
  after(() => t.close())

  describe('happy', () => {
    it('200 ready for the first signer, with documents, page sizes and areas as fractions', async () => {
      const created = await create(await twoSigners())
      const res = await bySlug(created.submitters[0]!)
      assert.equal(res.statusCode, 200)
      const form = res.json()
      assert.equal(form.state, 'ready')
      assert.deepEqual(form.submitter, {
        id: created.submitters[0]!.id,
        email: 'ann@example.eu',
        name: 'Ann',
        role: 'first',
        status: 'pending',
      })
      assert.deepEqual(form.submission, {
        id: created.id,
        status: 'sent',
        expires_at: null,
        name: 'Contract',
        preview: false,
        message: null,
      })
      assert.equal(form.progress, null)
      assert.equal(form.redirect_url, null)
      assert.equal(form.documents.length, 1)
      assert.equal(form.documents[0].name, 'Contract')
      assert.equal(form.documents[0].pages.length, 1)
      near(form.documents[0].pages[0].width, 595.28, 'width')
      near(form.documents[0].pages[0].height, 841.89, 'height')
      const field = form.fields.find((f: Field) => f.name === 'First signature')
      assert.equal(field.type, 'signature')
      assert.equal(field.role, 'first')
      assert.equal(field.required, true)
      assert.equal(field.readonly, false)
      assert.equal(field.value, null)
      const [area] = field.areas
      assert.equal(area.page, 1)
      assert.equal(area.document, 0)
      for (const [k, v] of Object.entries({ x: 0.6, y: 0.85, w: 0.3, h: 0.05 })) near(area[k], v, k)
    })

    it("200 the submission's name and the sender's message as written, variables unfilled", async () => {
      const message = {
        subject: 'Please sign {{document.name}}',
        body: 'Hello <b>{{submitter.name}}</b>,\n\nthanks.',
      }
      const created = await create(await twoSigners({ message, signing_order: 'random' }))
      const form = (await bySlug(created.submitters[1]!)).json()
      assert.equal(form.submission.name, 'Contract')
      assert.deepEqual(form.submission.message, message)
      const subjectOnly = await create(await twoSigners({ message: { subject: 'Just this' } }))
      const only = (await bySlug(subjectOnly.submitters[0]!)).json()
      assert.deepEqual(only.submission.message, { subject: 'Just this', body: null })
    })

    it('200 the name of the template a submission was made from', async () => {
      const templateId = await createTemplateFor(t, keys.testKey, { name: 'Lease — 12 rue Haute' })
      const submitters = [
        { role: 'first', email: 'ann@example.eu' },
        { role: 'second', email: 'bob@example.eu' },
      ]
      const created = await create({ template_id: templateId, submitters }, '/v1/submissions')
      assert.equal((await bySlug(created.submitters[0]!)).json().submission.name, 'Lease — 12 rue Haute')
    })

    it("200 pdf_url serves the document's exact bytes", async () => {
      const created = await create(await twoSigners())
      const { documents } = (await bySlug(created.submitters[0]!)).json()
      const file = await get(new URL(documents[0].pdf_url).pathname)
      assert.equal(file.statusCode, 200)
      assert.match(String(file.headers['content-type']), /^application\/pdf/)
      assert.ok(file.rawPayload.equals(Buffer.from(await a4())))
    })

    it('200 the same form through the embed token as through the slug', async () => {
      const created = await create(await twoSigners())
      const withoutUrls = (form: { documents: Array<{ pdf_url?: string }> }) => ({
        ...form,
        documents: form.documents.map(({ pdf_url: _, ...d }) => d),
      })
      const slug = await bySlug(created.submitters[0]!)
      const embed = await byJwt(created.submitters[0]!)
      assert.equal(embed.statusCode, 200, embed.body)
      assert.deepEqual(withoutUrls(embed.json()), withoutUrls(slug.json()))
    })

    it('200 waiting_for_others for the second signer in preserved order, ready in random order', async () => {
      const preserved = await create(await twoSigners())
      assert.equal(await stateOf(bySlug(preserved.submitters[1]!)), 'waiting_for_others')
      assert.equal(await stateOf(bySlug(preserved.submitters[0]!)), 'ready')
      const random = await create(await twoSigners({ signing_order: 'random' }))
      assert.equal(await stateOf(bySlug(random.submitters[1]!)), 'ready')
    })

    it('200 page 1 for an area declared with page 0 (0-indexed body)', async () => {
      const created = await create(await twoSigners({}, 0))
      const { fields } = (await bySlug(created.submitters[0]!)).json()
      assert.deepEqual(
        fields.map((f: Field) => f.areas.map((a) => a.page)),
        [[1], [1]],
      )
    })

    it("200 the signer's own prefilled values and redirect_url, never another role's values", async () => {
      const templateId = await createTemplateFor(t, keys.testKey)
      const created = await create(
        {
          template_id: templateId,
          redirect_url: 'https://example.eu/thanks',
          submitters: [
            { role: 'first', email: 'ann@example.eu', fields: { 'First name': 'Ann' } },
            { role: 'second', email: 'bob@example.eu' },
          ],
        },
        '/v1/submissions',
      )
      const firstNameIn = (form: { fields: Field[] }) =>
        form.fields.find((f) => f.name === 'First name')?.value
      const first = (await bySlug(created.submitters[0]!)).json()
      assert.equal(firstNameIn(first), 'Ann')
      assert.equal(first.redirect_url, 'https://example.eu/thanks')
      const second = (await bySlug(created.submitters[1]!)).json()
      assert.equal(firstNameIn(second), null)
      assert.ok(!JSON.stringify(second).includes('ann@example.eu'), "no other signer's address")
    })

    it('200 and nothing changes: the submission stays sent, no viewed event', async () => {
      const created = await create(await twoSigners())
      assert.equal((await bySlug(created.submitters[0]!)).statusCode, 200)
      assert.equal((await byJwt(created.submitters[0]!)).statusCode, 200)
      const api = (url: string) => t.request(keys.testKey, { method: 'GET', url })
      const submission = (await api(`/v1/submissions/${created.id}`)).json()
      assert.equal(submission.status, 'sent')
      assert.equal(submission.submitters[0].status, 'pending')
      const events = (await api(`/v1/events?submission_id=${created.id}`)).json().data
      const types: string[] = events.map((e: { type: string }) => e.type)
      assert.deepEqual(types.sort(), ['submission.created', 'submission.sent'])
    })

    it('200 cancelled after DELETE, by slug and by embed token', async () => {
      const created = await create(await twoSigners())
      const res = await t.request(keys.testKey, { method: 'DELETE', url: `/v1/submissions/${created.id}` })
      assert.equal(res.statusCode, 200)
      assert.equal(await stateOf(bySlug(created.submitters[0]!)), 'cancelled')
      assert.equal(await stateOf(bySlug(created.submitters[1]!)), 'cancelled')
      assert.equal(await stateOf(byJwt(created.submitters[0]!)), 'cancelled')
    })

    it('200 expired once expires_at has passed, before any job moved the submission', async () => {
      const expiresAt = new Date(t.clock.now().getTime() + DAY).toISOString()
      const created = await create(await twoSigners({ expires_at: expiresAt }))
      assert.equal(await stateOf(bySlug(created.submitters[0]!)), 'ready')
      t.clock.advance(DAY + 1000)
      const form = (await bySlug(created.submitters[0]!)).json()
      assert.equal(form.state, 'expired')
      // Ended: the link reveals nothing more, not even the document's name.
      assert.deepEqual(form.submission, {
        id: created.id,
        status: 'sent',
        expires_at: expiresAt,
        name: null,
        preview: false,
        message: null,
      })
    })

    it('200 email_2fa_required with documents and fields withheld', async () => {
      const guarded = [
        { role: 'first', email: 'ann@example.eu', require_email_2fa: true },
        { role: 'second', email: 'bob@example.eu' },
      ]
      const created = await create(await twoSigners({ submitters: guarded }))
      for (const res of [await bySlug(created.submitters[0]!), await byJwt(created.submitters[0]!)]) {
        assert.equal(res.statusCode, 200, res.body)
        const form = res.json()
        assert.equal(form.state, 'email_2fa_required')
        assert.deepEqual(form.documents, [])
        assert.deepEqual(form.fields, [])
        assert.equal(form.submitter.id, created.submitters[0]!.id)
      }
    })
  })

  describe('errors', () => {
    it('404 resource_not_found for an unknown slug, in the error envelope', async () => {
      await refuse(`/s/${'x'.repeat(22)}/form`, 'resource_not_found', 404)
      const res = await get(`/s/${'x'.repeat(22)}/form`)
      assert.equal(errorOf(res).type, 'invalid_request_error')
    })

    it('404 resource_not_found for a genuine token naming no submitter', async () => {
      const now = t.clock.now()
      const ids = { sub: `sbm_${'Z'.repeat(24)}`, sid: `sub_${'Z'.repeat(24)}` }
      const token = await issueEmbedToken(t.deps.keys.embed, ids, new Date(now.getTime() + DAY), now)
      await refuse(`/embed/${token}/form`, 'resource_not_found', 404)
    })
  })

  describe('security', () => {
    it('401 invalid_signing_token for a token signed with another key', async () => {
      const created = await create(await twoSigners())
      const [, payload] = lastSegment(created.submitters[0]!.embed_src).split('.')
      const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString())
      const forged = await new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .sign(new Uint8Array(32).fill(1))
      await refuse(`/embed/${forged}/form`, 'invalid_signing_token', 401)
      assert.equal(errorOf(await get(`/embed/${forged}/form`)).type, 'authentication_error')
    })

    it("401 invalid_signing_token for a token whose claims were edited to another signer's", async () => {
      const created = await create(await twoSigners())
      const [header, payload, signature] = lastSegment(created.submitters[0]!.embed_src).split('.')
      const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString())
      const edited = `${header}.${b64url({ ...claims, sub: created.submitters[1]!.id })}.${signature}`
      await refuse(`/embed/${edited}/form`, 'invalid_signing_token', 401)
    })

    it('401 invalid_signing_token for alg: none and for text that is no JWT', async () => {
      const created = await create(await twoSigners())
      const [, payload] = lastSegment(created.submitters[0]!.embed_src).split('.')
      await refuse(
        `/embed/${b64url({ alg: 'none', typ: 'JWT' })}.${payload}./form`,
        'invalid_signing_token',
        401,
      )
      await refuse('/embed/not-a-token/form', 'invalid_signing_token', 401)
    })

    it('401 invalid_signing_token once the token has expired (30 days without expires_at)', async () => {
      const created = await create(await twoSigners())
      assert.equal((await byJwt(created.submitters[0]!)).statusCode, 200)
      t.clock.advance(30 * DAY + 1000)
      const res = await byJwt(created.submitters[0]!)
      assert.equal(res.statusCode, 401)
      assert.equal(errorOf(res).code, 'invalid_signing_token')
      assert.match(errorOf(res).message, /expired/)
      assert.equal((await bySlug(created.submitters[0]!)).statusCode, 200, 'the slug does not expire')
    })
  })
})

describe('signing links of any shape', () => {
  it('404 for an over-long slug and 403 for a short file token, never 400', async () => {
    const t = await startTestApp()
    try {
      const slug = await t.app.inject({ method: 'GET', url: `/s/${'x'.repeat(300)}/form` })
      assert.equal(slug.statusCode, 404)
      const file = await t.app.inject({ method: 'GET', url: '/files/abc' })
      assert.equal(file.statusCode, 403)
      assert.equal(errorOf(file).code, 'invalid_file_url')
    } finally {
      await t.close()
    }
  })
})
