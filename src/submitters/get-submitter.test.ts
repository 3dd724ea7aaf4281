import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTemplateFor, fromPdfBody, post } from '../../test/documents.ts'
import { errorOf, startTestApp, type TestApp } from '../../test/harness.ts'

const TINY_PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='

describe('GET /v1/submitters/{id}', () => {
  let t: TestApp
  let keys: Awaited<ReturnType<TestApp['account']>>
  // biome-ignore lint/suspicious/noExplicitAny: creation response read as JSON
  let created: any

  const get = (id: string, key = keys.testKey) =>
    t.request(key, { method: 'GET', url: `/v1/submitters/${id}` })

  before(async () => {
    t = await startTestApp()
    keys = await t.account()
    const templateId = await createTemplateFor(t, keys.testKey)
    const res = await post(t, keys.testKey, '/v1/submissions', {
      template_id: templateId,
      submitters: [
        {
          role: 'first',
          email: 'Ann@Example.EU',
          name: 'Ann',
          phone: '+33 6 12 34 56 78',
          external_id: 'crm-42',
          metadata: { team: 'sales' },
          fields: { 'First name': 'Ann' },
        },
        { role: 'second', email: 'bob@example.eu', send_email: false, require_email_2fa: true },
      ],
    })
    assert.equal(res.statusCode, 201, res.body)
    created = res.json()
  })
  after(() => t.close())

  describe('happy', () => {
    it('200 the submitter with the values prefilled at creation', async () => {
      const res = await get(created.submitters[0].id)
      assert.equal(res.statusCode, 200)
      const body = res.json()
      assert.equal(body.id, created.submitters[0].id)
      assert.equal(body.object, 'submitter')
      assert.equal(body.submission_id, created.id)
      assert.equal(body.role, 'first')
      assert.equal(body.email, created.submitters[0].email)
      assert.equal(body.email.toLowerCase(), 'ann@example.eu')
      assert.equal(body.name, 'Ann')
      assert.equal(body.phone, '+33 6 12 34 56 78')
      assert.equal(body.external_id, 'crm-42')
      assert.deepEqual(body.metadata, { team: 'sales' })
      assert.equal(body.status, 'pending')
      assert.equal(body.send_email, true)
      assert.equal(body.require_email_2fa, false)
      assert.equal(body.signing_url, created.submitters[0].signing_url)
      assert.equal(body.opened_at, null)
      assert.equal(body.signed_at, null)
      assert.equal(body.declined_at, null)
      assert.equal(body.created_at, created.created_at)
      assert.deepEqual(body.values, { 'First name': 'Ann' })
    })

    it('200 empty values and the per-submitter flags for a submitter given no fields', async () => {
      const body = (await get(created.submitters[1].id)).json()
      assert.deepEqual(body.values, {})
      assert.equal(body.role, 'second')
      assert.equal(body.name, null)
      assert.equal(body.phone, null)
      assert.equal(body.external_id, null)
      assert.deepEqual(body.metadata, {})
      assert.equal(body.send_email, false)
      assert.equal(body.require_email_2fa, true)
    })

    it('200 pre_signed with its signature value and signed_at for a submitter created completed', async () => {
      const body = await fromPdfBody({
        submitters: [
          { role: 'signer', email: 'ann@example.eu' },
          {
            role: 'witness',
            email: 'wit@example.eu',
            completed: true,
            fields: [{ name: 'Witness', default_value: TINY_PNG }],
          },
        ],
      })
      const [doc] = body.documents as Array<{ fields: unknown[] }>
      doc!.fields.push({
        name: 'Witness',
        type: 'signature',
        role: 'witness',
        areas: [{ page: 1, x: 0.1, y: 0.85, w: 0.3, h: 0.05 }],
      })
      const res = await post(t, keys.testKey, '/v1/submissions/from_pdf', body)
      assert.equal(res.statusCode, 201, res.body)
      const witness = (await get(res.json().submitters[1].id)).json()
      assert.equal(witness.status, 'pre_signed')
      assert.equal(witness.signed_at, t.clock.now().toISOString())
      assert.deepEqual(witness.values, { Witness: TINY_PNG })
      const signer = (await get(res.json().submitters[0].id)).json()
      assert.equal(signer.status, 'pending')
      assert.deepEqual(signer.values, {})
    })
  })

  describe('errors', () => {
    for (const id of ['sbm_1', `sub_${'a'.repeat(24)}`, `sbm_${'a'.repeat(25)}`]) {
      it(`400 invalid_id for ${id}`, async () => {
        const res = await get(id)
        assert.equal(res.statusCode, 400)
        assert.equal(errorOf(res).code, 'invalid_id')
      })
    }

    it('404 resource_not_found for a well-formed unknown id', async () => {
      const res = await get(`sbm_${'Z'.repeat(24)}`)
      assert.equal(res.statusCode, 404)
      assert.equal(errorOf(res).code, 'resource_not_found')
    })

    it('401 missing_api_key without a key', async () => {
      const res = await t.app.inject({ method: 'GET', url: `/v1/submitters/${created.submitters[0].id}` })
      assert.equal(res.statusCode, 401)
      assert.equal(errorOf(res).code, 'missing_api_key')
    })
  })

  describe('security', () => {
    it("404 resource_not_found for another account's or the live key", async () => {
      const other = await t.account('other')
      for (const key of [other.testKey, keys.liveKey]) {
        const res = await get(created.submitters[0].id, key)
        assert.equal(res.statusCode, 404)
        assert.equal(errorOf(res).code, 'resource_not_found')
      }
    })

    it('200 never shows the signing slug column, the embed token or the account', async () => {
      const body = (await get(created.submitters[0].id)).json()
      for (const key of ['signing_slug', 'embed_src', 'account_id', 'environment', 'position']) {
        assert.equal(key in body, false, key)
      }
    })
  })
})
