import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTemplateFor, fromPdfBody, post } from '../../test/documents.ts'
import { errorOf, startTestApp, type TestApp } from '../../test/harness.ts'

describe('GET /v1/submissions/{id}', () => {
  let t: TestApp
  let keys: Awaited<ReturnType<TestApp['account']>>
  let templateId: string
  // biome-ignore lint/suspicious/noExplicitAny: creation response read as JSON
  let created: any

  const get = (id: string, key = keys.testKey) =>
    t.request(key, { method: 'GET', url: `/v1/submissions/${id}` })

  before(async () => {
    t = await startTestApp()
    keys = await t.account()
    templateId = await createTemplateFor(t, keys.testKey)
    const res = await post(t, keys.testKey, '/v1/submissions', {
      template_id: templateId,
      submitters: [
        {
          role: 'first',
          email: 'ann@example.eu',
          name: 'Ann',
          external_id: 'crm-1',
          fields: { 'First name': 'Ann' },
        },
        { role: 'second', email: 'bob@example.eu', metadata: { seat: 2 } },
      ],
      metadata: { crm_id: 'A-1', amount: 12.5, vip: true, note: null },
      message: { subject: 'Please sign', body: 'Thanks' },
      redirect_url: 'https://example.eu/done',
    })
    assert.equal(res.statusCode, 201, res.body)
    created = res.json()
  })
  after(() => t.close())

  describe('happy', () => {
    it('200 with every field of the documents and its areas in points and fractions', async () => {
      const body = (await get(created.id)).json()
      assert.deepEqual(
        body.fields.map((f: { name: string; role: string; type: string; required: boolean }) => [
          f.name,
          f.role,
          f.type,
          f.required,
        ]),
        [
          ['First signature', 'first', 'signature', true],
          ['First name', 'first', 'text', false],
          ['Second signature', 'second', 'signature', true],
        ],
      )
      const [area] = body.fields[0].areas
      assert.deepEqual(area.fractions, { x: 0.1, y: 0.8, w: 0.3, h: 0.05 })
      assert.equal(area.document, 0)
      assert.equal(area.page, 1)
      // The fixture's page is A4: 595 × 842 points, give or take a fraction.
      assert.ok(Math.abs(area.x - 59.5) < 0.5 && Math.abs(area.y - 673.6) < 0.5, JSON.stringify(area))
      assert.ok(Math.abs(area.w - 178.6) < 0.5 && Math.abs(area.h - 42.1) < 0.5, JSON.stringify(area))
    })

    it('200 the submission with its submitters in signing order, metadata echoed', async () => {
      const res = await get(created.id)
      assert.equal(res.statusCode, 200)
      const body = res.json()
      assert.equal(body.id, created.id)
      assert.equal(body.object, 'submission')
      assert.equal(body.status, 'sent')
      assert.equal(body.template_id, templateId)
      assert.deepEqual(body.metadata, { crm_id: 'A-1', amount: 12.5, vip: true, note: null })
      assert.equal(body.audit_log_url, created.audit_log_url)
      assert.equal(body.audit_log_url, `${t.config.publicUrl}/v1/submissions/${created.id}/audit_log`)
      assert.equal(body.created_at, created.created_at)
      assert.equal(body.created_at, t.clock.now().toISOString())
      assert.equal(body.signing_order, 'preserved')
      assert.equal(body.send_email, true)
      assert.equal(body.expires_at, null)
      assert.equal(body.redirect_url, 'https://example.eu/done')
      assert.deepEqual(body.message, { subject: 'Please sign', body: 'Thanks' })
      assert.equal(body.cancelled_at, null)
      assert.equal('completed_at' in body, false, 'completed_at appears only on completed submissions')

      assert.deepEqual(
        body.submitters.map((s: { id: string; role: string; email: string }) => [s.id, s.role, s.email]),
        [
          [created.submitters[0].id, 'first', 'ann@example.eu'],
          [created.submitters[1].id, 'second', 'bob@example.eu'],
        ],
      )
      const [first, second] = body.submitters
      assert.equal(first.object, 'submitter')
      assert.equal(first.submission_id, created.id)
      assert.equal(first.signing_url, created.submitters[0].signing_url)
      assert.equal(second.signing_url, created.submitters[1].signing_url)
      assert.equal(first.status, 'pending')
      assert.equal(first.name, 'Ann')
      assert.equal(first.external_id, 'crm-1')
      assert.deepEqual(second.metadata, { seat: 2 })
      assert.equal(first.signed_at, null)
      assert.equal(first.opened_at, null)
    })

    it('200 status created and the internal template for an inline PDF sent without e-mail', async () => {
      const res = await post(
        t,
        keys.testKey,
        '/v1/submissions/from_pdf',
        await fromPdfBody({ send_email: false }),
      )
      assert.equal(res.statusCode, 201, res.body)
      const body = (await get(res.json().id)).json()
      assert.equal(body.status, 'created')
      assert.equal(body.send_email, false)
      assert.match(body.template_id, /^tpl_[0-9A-Za-z]{24}$/)
      assert.notEqual(body.template_id, templateId)
      assert.deepEqual(body.metadata, {})
      assert.equal(body.submitters.length, 1)
      assert.equal(body.submitters[0].signing_url, res.json().submitters[0].signing_url)
    })

    it('200 with the same body on every read: a GET changes nothing', async () => {
      const a = await get(created.id)
      t.clock.advance(1000)
      const b = await get(created.id)
      assert.equal(b.body, a.body)
    })
  })

  describe('errors', () => {
    for (const id of [
      'sub_123',
      `sub_${'a'.repeat(25)}`,
      `sub_${'a'.repeat(23)}-`,
      `tpl_${'a'.repeat(24)}`,
      `SUB_${'a'.repeat(24)}`,
      'anything',
    ]) {
      it(`400 invalid_id for ${id}`, async () => {
        const res = await get(id)
        assert.equal(res.statusCode, 400)
        assert.equal(errorOf(res).code, 'invalid_id')
        assert.equal(errorOf(res).type, 'invalid_request_error')
      })
    }

    it('404 resource_not_found for a well-formed unknown id', async () => {
      const res = await get(`sub_${'Z'.repeat(24)}`)
      assert.equal(res.statusCode, 404)
      assert.equal(errorOf(res).code, 'resource_not_found')
      assert.equal(errorOf(res).type, 'invalid_request_error')
    })

    it('401 missing_api_key without the Authorization header', async () => {
      const res = await t.app.inject({ method: 'GET', url: `/v1/submissions/${created.id}` })
      assert.equal(res.statusCode, 401)
      assert.equal(errorOf(res).code, 'missing_api_key')
    })
  })

  describe('security', () => {
    it("404 resource_not_found for another account's key and for the live key", async () => {
      const other = await t.account('other')
      for (const key of [other.testKey, other.liveKey, keys.liveKey]) {
        const res = await get(created.id, key)
        assert.equal(res.statusCode, 404)
        assert.equal(errorOf(res).code, 'resource_not_found')
      }
    })

    it('200 never shows stored secrets or internal columns', async () => {
      const body = (await get(created.id)).json()
      for (const key of ['account_id', 'environment']) assert.equal(key in body, false, key)
      for (const s of body.submitters) {
        for (const key of ['signing_slug', 'values', 'account_id', 'position', 'embed_src']) {
          assert.equal(key in s, false, key)
        }
      }
    })
  })
})
