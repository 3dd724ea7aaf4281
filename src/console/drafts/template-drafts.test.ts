import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { PageSizes } from 'pdf-lib'
import { type ConsoleClient, signedInMember } from '../../../test/console/console-client.ts'
import { minimalDocx } from '../../../test/fixtures/docx.ts'
import { pdfOfPages } from '../../../test/fixtures/pdfs.ts'
import { errorOf, startTestApp, type TestApp } from '../../../test/harness.ts'
import { closeDocxConverter } from '../../render/docx-to-html.ts'
import { DOCX_TYPE } from './template-draft-schemas.ts'

/** Two roles' tags, one on each page, and a tag without a role (it takes the first role named). */
const TAGGED_HTML = `<!doctype html><html><head><meta charset="utf-8"><title>Lease</title></head><body>
<p>Signed by the tenant: {{Tenant signature;role=Tenant;type=signature}}</p>
<p>Date: {{Date signed;type=date}}</p>
<p style="break-before: page">Landlord, name in capitals: {{Landlord name;role=Landlord;type=text}}</p>
</body></html>`

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
  after(async () => {
    closeDocxConverter()
    await t.close()
  })

  const upload = (
    client: ConsoleClient,
    body: Buffer,
    name = 'Lease',
    contentType = 'application/pdf',
    size = '',
  ) =>
    client.request({
      method: 'POST',
      url: `/console/api/template_drafts?name=${encodeURIComponent(name)}${size ? `&size=${size}` : ''}`,
      headers: { 'content-type': contentType },
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

  describe('happy: HTML and DOCX with tags', () => {
    it('201 an HTML draft: its PDF, the fields where the tags stood, the roles they name and the tag report', async () => {
      const res = await upload(member, Buffer.from(TAGGED_HTML), 'Lease', 'text/html; charset=utf-8')
      assert.equal(res.statusCode, 201, res.body)
      const draft = res.json()
      assert.deepEqual(draft.pages, [
        { width: 595, height: 842 },
        { width: 595, height: 842 },
      ])
      const byName = new Map<
        string,
        { role: string; type: string; areas: { page: number; x: number; y: number; w: number; h: number }[] }
      >(draft.fields.map((f: { name: string }) => [f.name, f]))
      assert.deepEqual([...byName.keys()], ['Tenant signature', 'Date signed', 'Landlord name'])
      assert.equal(byName.get('Tenant signature')!.role, 'Tenant')
      assert.equal(byName.get('Date signed')!.role, 'Tenant', 'a tag without a role takes the first named')
      assert.equal(byName.get('Landlord name')!.role, 'Landlord')
      assert.equal(byName.get('Landlord name')!.type, 'text')
      // 20 mm margins: the first lines start 57 pt (0.068 of the height) from the top, the tags after
      // their text on the line.
      const [signature] = byName.get('Tenant signature')!.areas
      assert.equal(signature!.page, 1)
      assert.ok(signature!.x > 0.2 && signature!.x < 0.6, `x ${signature!.x}`)
      assert.ok(signature!.y > 0.05 && signature!.y < 0.12, `y ${signature!.y}`)
      const [landlord] = byName.get('Landlord name')!.areas
      assert.equal(landlord!.page, 2)
      assert.ok(landlord!.y > 0.05 && landlord!.y < 0.12, `y ${landlord!.y}`)

      assert.equal(draft.tag_report.length, 3)
      const reported = draft.tag_report[0]
      assert.equal(reported.name, 'Tenant signature')
      assert.equal(reported.areas[0].page, 1)
      assert.ok(Math.abs(reported.areas[0].fractions.x - signature!.x) < 1e-6)
      assert.ok(Math.abs(reported.areas[0].x - signature!.x * 595) < 0.01)

      // The fields save as they come: the template has them, with the HTML's PDF.
      const saved = await save(draft.id, { name: 'Lease', fields: draft.fields }, 'html-1')
      assert.equal(saved.statusCode, 201, saved.body)
      assert.deepEqual(
        saved.json().fields.map((f: { name: string; role: string }) => [f.name, f.role]),
        [
          ['Tenant signature', 'Tenant'],
          ['Date signed', 'Tenant'],
          ['Landlord name', 'Landlord'],
        ],
      )
    })

    it('201 prints on Letter when asked; a tag-less document gets no fields and its role is "Signer" when tags name none', async () => {
      const letter = await upload(member, Buffer.from('<p>{{Sign here}}</p>'), 'Plain', 'text/html', 'Letter')
      assert.equal(letter.statusCode, 201, letter.body)
      assert.deepEqual(letter.json().pages, [{ width: 612, height: 792 }])
      assert.equal(letter.json().fields[0].role, 'Signer')
      const none = await upload(member, Buffer.from('<p>No tags at all.</p>'), 'Plain', 'text/html')
      assert.equal(none.statusCode, 201, none.body)
      assert.deepEqual([none.json().fields, none.json().tag_report], [[], []])
    })

    it('201 a DOCX draft: the tags of the Word document become fields', async () => {
      const docx = minimalDocx(
        '<w:p><w:r><w:t xml:space="preserve">Client: {{Client signature;role=Client}}</w:t></w:r></w:p>' +
          '<w:p><w:r><w:t xml:space="preserve">Provider: {{Provider signature;role=Provider}}</w:t></w:r></w:p>',
      )
      const res = await upload(member, docx, 'Agreement', DOCX_TYPE)
      assert.equal(res.statusCode, 201, res.body)
      const draft = res.json()
      assert.equal(draft.pages.length, 1)
      assert.deepEqual(
        draft.fields.map((f: { name: string; role: string; areas: { page: number }[] }) => [
          f.name,
          f.role,
          f.areas[0]!.page,
        ]),
        [
          ['Client signature', 'Client', 1],
          ['Provider signature', 'Provider', 1],
        ],
      )
      assert.ok(draft.fields[1].areas[0].y > draft.fields[0].areas[0].y, 'the second tag is below the first')
      assert.equal(draft.tag_report.length, 2)
    })
  })

  describe('duplicate and edit (from_template)', () => {
    const fromTemplate = (client: ConsoleClient, id: string) =>
      client.request({ method: 'POST', url: `/console/api/template_drafts/from_template/${id}` })

    it("201 a draft holding a copy of the template's PDF and fields; saved, it is a new template", async () => {
      const draft = (await upload(member, pdf)).json()
      const original = (
        await save(draft.id, { name: 'Lease', slug: 'lease-v1', fields: FIELDS }, 'dup-1')
      ).json()
      const res = await fromTemplate(member, original.id)
      assert.equal(res.statusCode, 201, res.body)
      const copy = res.json()
      assert.notEqual(copy.id, draft.id)
      assert.equal(copy.name, 'Lease')
      assert.deepEqual(copy.pages, draft.pages)
      assert.deepEqual(copy.tag_report, [])
      assert.deepEqual(
        copy.fields.map((f: { name: string; role: string; areas: unknown[] }) => [f.name, f.role, f.areas]),
        FIELDS.map((f) => [f.name, f.role, f.areas]),
      )
      const image = await member.request({
        method: 'GET',
        url: `/console/api/template_drafts/${copy.id}/pages/2`,
      })
      assert.equal(image.statusCode, 200)

      const moved = [
        { ...copy.fields[0], areas: [{ page: 1, x: 0.2, y: 0.5, w: 0.3, h: 0.06 }] },
        copy.fields[1],
      ]
      const saved = await save(copy.id, { name: 'Lease v2', slug: 'lease-v2', fields: moved }, 'dup-2')
      assert.equal(saved.statusCode, 201, saved.body)
      assert.notEqual(saved.json().id, original.id)
      assert.equal(saved.json().slug, 'lease-v2')
      assert.deepEqual(saved.json().fields[0].areas, [
        { document: 0, page: 1, x: 0.2, y: 0.5, w: 0.3, h: 0.06 },
      ])
      const unchanged = (
        await t.request(testKey, { method: 'GET', url: `/v1/templates/${original.id}` })
      ).json()
      assert.deepEqual(unchanged.fields[0].areas, [{ document: 0, ...FIELDS[0]!.areas[0] }])
    })

    it("404 for another account's template, the other environment's, and an unknown one", async () => {
      const draft = (await upload(member, pdf)).json()
      const original = (await save(draft.id, { name: 'Lease', fields: FIELDS }, 'dup-3')).json()
      const other = await signedInMember(t, (await t.account('Other dup')).accountId)
      assert.equal((await fromTemplate(other, original.id)).statusCode, 404)
      assert.equal((await fromTemplate(member, 'tpl_000000000000000000000000')).statusCode, 404)
      await member.request({
        method: 'POST',
        url: '/console/api/session/environment',
        payload: { environment: 'live' },
      })
      const live = await fromTemplate(member, original.id)
      await member.request({
        method: 'POST',
        url: '/console/api/session/environment',
        payload: { environment: 'test' },
      })
      assert.equal(live.statusCode, 404)
      assert.equal(errorOf(live).code, 'resource_not_found')
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

    it('422 invalid_template_tag naming the bad tag; 422 invalid_docx for a file that is not a DOCX', async () => {
      const res = await upload(member, Buffer.from('<p>Sign: {{Sig;type=stamp}}</p>'), 'Bad', 'text/html')
      assert.equal(res.statusCode, 422, res.body)
      assert.equal(errorOf(res).code, 'invalid_template_tag')
      assert.match(errorOf(res).message, /\{\{Sig;type=stamp\}\}/)
      const docx = await upload(member, Buffer.from('not a zip'), 'Bad', DOCX_TYPE)
      assert.equal(docx.statusCode, 422, docx.body)
      assert.equal(errorOf(docx).code, 'invalid_docx')
    })

    it('415 unsupported_content_type for another type; 422 invalid_request for an empty HTML body', async () => {
      const res = await upload(member, Buffer.from('a,b'), 'Sheet', 'text/csv')
      assert.equal(res.statusCode, 415, res.body)
      assert.equal(errorOf(res).code, 'unsupported_content_type')
      const empty = await upload(member, Buffer.alloc(0), 'Empty', 'text/html')
      assert.equal(empty.statusCode, 422, empty.body)
      assert.equal(errorOf(empty).code, 'invalid_request')
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
