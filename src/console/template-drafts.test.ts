import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { PageSizes } from 'pdf-lib'
import { type ConsoleClient, signedInMember } from '../../test/console.ts'
import { pdfOfPages } from '../../test/fixtures/pdfs.ts'
import { errorOf, startTestApp, type TestApp } from '../../test/harness.ts'

const FIELDS = [
  {
    name: 'Signature A',
    type: 'signature',
    role: 'Tenant',
    areas: [{ page: 1, x: 0.1, y: 0.7, w: 0.3, h: 0.06 }],
  },
  { name: 'Name B', type: 'text', role: 'Landlord', areas: [{ page: 2, x: 0.5, y: 0.2, w: 0.25, h: 0.04 }] },
]

describe('template drafts (/console/api/template_drafts)', () => {
  let t: TestApp
  let member: ConsoleClient
  let testKey: string
  let pdf: Buffer
  before(async () => {
    t = await startTestApp()
    const account = await t.account('Acme')
    testKey = account.testKey
    member = await signedInMember(t, account.accountId, { role: 'editor' })
    pdf = Buffer.from(await pdfOfPages([PageSizes.A4, PageSizes.Letter]))
  })
  after(() => t.close())

  const upload = (client: ConsoleClient, body: Buffer, name = 'Lease') =>
    client.request({
      method: 'POST',
      url: `/console/api/template_drafts?name=${encodeURIComponent(name)}`,
      headers: { 'content-type': 'application/pdf' },
      payload: body,
    })

  const save = (draftId: string, body: object, key: string) =>
    member.request({
      method: 'POST',
      url: `/console/api/template_drafts/${draftId}/template`,
      headers: { 'idempotency-key': key },
      payload: body,
    })

  describe('happy', () => {
    it('201 stores the PDF and answers its page sizes in points', async () => {
      const res = await upload(member, pdf)
      assert.equal(res.statusCode, 201, res.body)
      const draft = res.json()
      assert.equal(draft.object, 'template_draft')
      assert.match(draft.id, /^tdr_[0-9A-Za-z]{24}$/)
      assert.equal(draft.name, 'Lease')
      assert.deepEqual(draft.pages, [
        { width: 595.28, height: 841.89 },
        { width: 612, height: 792 },
      ])
      assert.equal(Date.parse(draft.expires_at) - t.clock.now().getTime(), 24 * 3600 * 1000)
    })

    it('200 a page is a JPEG of the asked width, cached for the draft life', async () => {
      const draft = (await upload(member, pdf)).json()
      const res = await member.request({
        method: 'GET',
        url: `/console/api/template_drafts/${draft.id}/pages/2?w=1200`,
      })
      assert.equal(res.statusCode, 200, res.body)
      assert.equal(res.headers['content-type'], 'image/jpeg')
      assert.match(String(res.headers['cache-control']), /immutable/)
      assert.deepEqual([...res.rawPayload.subarray(0, 3)], [0xff, 0xd8, 0xff])
      // The SOF0 marker holds the pixel width: the asked 1200.
      const sof = res.rawPayload.indexOf(Buffer.from([0xff, 0xc0]))
      assert.ok(sof > 0)
      assert.equal(res.rawPayload.readUInt16BE(sof + 7), 1200)
    })

    it('201 saves a template with created_via ui, its fields where drawn, listed by created_via=ui', async () => {
      const draft = (await upload(member, pdf)).json()
      const res = await save(draft.id, { name: 'Lease', slug: 'lease', fields: FIELDS }, 'save-1')
      assert.equal(res.statusCode, 201, res.body)
      const template = res.json()
      assert.equal(template.created_via, 'ui')
      assert.equal(template.slug, 'lease')
      const fetched = (
        await t.request(testKey, { method: 'GET', url: `/v1/templates/${template.id}` })
      ).json()
      assert.deepEqual(
        fetched.fields.map((f: { name: string; role: string; areas: unknown[] }) => [
          f.name,
          f.role,
          f.areas,
        ]),
        FIELDS.map((f) => [f.name, f.role, [{ document: 0, ...f.areas[0] }]]),
      )
      const listed = await t.request(testKey, { method: 'GET', url: '/v1/templates?created_via=ui' })
      assert.ok(listed.json().data.some((x: { id: string }) => x.id === template.id))

      const replay = await save(draft.id, { name: 'Lease', slug: 'lease', fields: FIELDS }, 'save-1')
      assert.equal(replay.statusCode, 201)
      assert.equal(replay.json().id, template.id, 'the same Idempotency-Key answers the same template')
    })
  })

  describe('errors', () => {
    it('409 slug_already_exists when the slug is taken', async () => {
      const draft = (await upload(member, pdf)).json()
      assert.equal(
        (await save(draft.id, { name: 'A', slug: 'taken', fields: FIELDS }, 'slug-1')).statusCode,
        201,
      )
      const res = await save(draft.id, { name: 'B', slug: 'taken', fields: FIELDS }, 'slug-2')
      assert.equal(res.statusCode, 409)
      assert.equal(errorOf(res).code, 'slug_already_exists')
    })

    it('422 invalid_pdf when the body is not a PDF', async () => {
      const res = await upload(member, Buffer.from('hello, not a PDF'))
      assert.equal(res.statusCode, 422, res.body)
      assert.equal(errorOf(res).code, 'invalid_pdf')
      assert.match(errorOf(res).message, /^The file: /)
    })

    it('422 invalid_field_area when a field lies off the page', async () => {
      const draft = (await upload(member, pdf)).json()
      const fields = [{ ...FIELDS[0], areas: [{ page: 3, x: 0.1, y: 0.1, w: 0.1, h: 0.1 }] }]
      const res = await save(draft.id, { name: 'A', fields }, 'area-1')
      assert.equal(res.statusCode, 422, res.body)
      assert.equal(errorOf(res).code, 'invalid_field_area')
    })
  })

  describe('security', () => {
    it("404 for another account's draft and for the other environment's", async () => {
      const draft = (await upload(member, pdf)).json()
      const other = await signedInMember(t, (await t.account('Other')).accountId)
      for (const url of [`/console/api/template_drafts/${draft.id}/pages/1`]) {
        assert.equal((await other.request({ method: 'GET', url })).statusCode, 404)
      }
      const saved = await other.request({
        method: 'POST',
        url: `/console/api/template_drafts/${draft.id}/template`,
        headers: { 'idempotency-key': 'other-1' },
        payload: { name: 'X', fields: FIELDS },
      })
      assert.equal(saved.statusCode, 404)
      await member.request({
        method: 'POST',
        url: '/console/api/session/environment',
        payload: { environment: 'live' },
      })
      const live = await member.request({
        method: 'GET',
        url: `/console/api/template_drafts/${draft.id}/pages/1`,
      })
      assert.equal(live.statusCode, 404)
      await member.request({
        method: 'POST',
        url: '/console/api/session/environment',
        payload: { environment: 'test' },
      })
    })

    it('403 csrf_token_invalid on an upload without the CSRF token; 401 without a session', async () => {
      const res = await member.request(
        {
          method: 'POST',
          url: '/console/api/template_drafts',
          headers: { 'content-type': 'application/pdf' },
          payload: pdf,
        },
        { csrf: false },
      )
      assert.equal(res.statusCode, 403)
      assert.equal(errorOf(res).code, 'csrf_token_invalid')
      const anonymous = await t.app.inject({
        method: 'POST',
        url: '/console/api/template_drafts',
        headers: { 'content-type': 'application/pdf' },
        payload: pdf,
      })
      assert.equal(anonymous.statusCode, 401)
    })

    it('404 for a draft past its 24 hours', async () => {
      const draft = (await upload(member, pdf)).json()
      // The session idles out after 12 h: uses every 8 h keep it alive past the draft's 24 h.
      for (let i = 0; i < 3; i++) {
        t.clock.advance(8 * 3600 * 1000 + 1)
        assert.equal((await member.request({ method: 'GET', url: '/console/api/session' })).statusCode, 200)
      }
      const res = await member.request({
        method: 'GET',
        url: `/console/api/template_drafts/${draft.id}/pages/1`,
      })
      assert.equal(res.statusCode, 404)
    })
  })
})
