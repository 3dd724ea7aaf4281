// POST /v1/templates, GET /v1/templates, GET /v1/templates/{id}, DELETE /v1/templates/{id}.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { base64, createTemplateFor, post } from '../../test/documents.ts'
import { a4, letter } from '../../test/fixtures/pdfs.ts'
import { errorOf, startTestApp, type TestApp } from '../../test/harness.ts'

describe('templates', () => {
  let t: TestApp
  let keys: Awaited<ReturnType<TestApp['account']>>
  before(async () => {
    t = await startTestApp()
    keys = await t.account()
  })
  after(() => t.close())

  const get = (url: string, key = keys.testKey) => t.request(key, { method: 'GET', url })

  describe('POST /v1/templates', () => {
    it('201 with documents, fields in fractions, roles and created_via api', async () => {
      const res = await post(t, keys.testKey, '/v1/templates', {
        name: 'Lease',
        slug: 'lease-2026',
        external_id: 'ext-1',
        metadata: { team: 'legal' },
        documents: [
          {
            name: 'Lease',
            pdf_base64: base64(await a4()),
            fields: [{ name: 'Tenant', role: 'tenant', areas: [{ page: 1, x: 357, y: 716, w: 178, h: 42 }] }],
          },
          {
            pdf_base64: base64(await letter()),
            fields: [
              {
                name: 'Owner',
                role: 'owner',
                type: 'initials',
                areas: [{ page: 1, x: 306, y: 396, w: 100, h: 20 }],
              },
            ],
          },
        ],
      })
      assert.equal(res.statusCode, 201, res.body)
      const tpl = res.json()
      assert.match(tpl.id, /^tpl_/)
      assert.equal(tpl.object, 'template')
      assert.equal(tpl.status, 'active')
      assert.equal(tpl.created_via, 'api')
      assert.equal(tpl.internal, false)
      assert.equal(tpl.slug, 'lease-2026')
      assert.deepEqual(tpl.roles, ['tenant', 'owner'])
      assert.equal(tpl.documents[1].name, 'Document 2')
      assert.deepEqual(tpl.documents[1].pages, [{ width: 612, height: 792 }])
      const tenant = tpl.fields[0].areas[0]
      assert.ok(Math.abs(tenant.x - 357 / 595.28) < 1e-4 && tenant.page === 1 && tenant.document === 0)
      assert.equal(tpl.fields[1].areas[0].document, 1)
      assert.equal(tpl.fields[1].areas[0].x, 0.5)
      assert.deepEqual((await get(`/v1/templates/${tpl.id}`)).json(), tpl)
    })

    it('409 slug_already_exists for a slug taken in the same environment only', async () => {
      await createTemplateFor(t, keys.testKey, { slug: 'unique' })
      const res = await post(t, keys.testKey, '/v1/templates', {
        name: 'x',
        slug: 'unique',
        documents: [{ pdf_base64: base64(await a4()) }],
      })
      assert.equal(res.statusCode, 409)
      assert.equal(errorOf(res).code, 'slug_already_exists')
      assert.equal(
        await createTemplateFor(t, keys.liveKey, { slug: 'unique' }).then((id) => id.startsWith('tpl_')),
        true,
      )
    })

    it('422 invalid_field_area, invalid_pdf and a field without a role', async () => {
      const overflow = await post(t, keys.testKey, '/v1/templates', {
        name: 'x',
        documents: [
          {
            pdf_base64: base64(await a4()),
            fields: [{ name: 'F', role: 'r', areas: [{ page: 1, x: 0.9, y: 0.1, w: 0.2, h: 0.1 }] }],
          },
        ],
      })
      assert.equal(errorOf(overflow).code, 'invalid_field_area')
      const bad = await post(t, keys.testKey, '/v1/templates', {
        name: 'x',
        documents: [{ pdf_base64: base64(Buffer.from('hello')) }],
      })
      assert.equal(errorOf(bad).code, 'invalid_pdf')
      const roleless = await post(t, keys.testKey, '/v1/templates', {
        name: 'x',
        documents: [
          {
            pdf_base64: base64(await a4()),
            fields: [{ name: 'F', areas: [{ page: 1, x: 0.1, y: 0.1, w: 0.2, h: 0.1 }] }],
          },
        ],
      })
      assert.equal(roleless.statusCode, 422)
      assert.equal(
        errorOf(roleless).message,
        'documents[0].fields[0].role: is required (the role of the submitter who fills it).',
      )
    })
  })

  describe('GET /v1/templates', () => {
    it('lists newest first, filters status and created_via, refuses bad filters', async () => {
      const own = await t.account('lists')
      const first = await createTemplateFor(t, own.testKey)
      t.clock.advance(1000)
      const second = await createTemplateFor(t, own.testKey)
      await t.request(own.testKey, { method: 'DELETE', url: `/v1/templates/${first}` })
      assert.deepEqual(
        (await get('/v1/templates', own.testKey)).json().data.map((x: { id: string }) => x.id),
        [second, first],
      )
      assert.deepEqual(
        (await get('/v1/templates?status=archived', own.testKey))
          .json()
          .data.map((x: { id: string }) => x.id),
        [first],
      )
      assert.equal((await get('/v1/templates?created_via=ui', own.testKey)).json().data.length, 0)
      assert.equal((await get('/v1/templates?created_via=api&limit=1', own.testKey)).json().has_more, true)
      for (const [query, code] of [
        ['?status=deleted', 'invalid_status'],
        ['?created_via=cli', 'invalid_created_via'],
        ['?limit=0', 'invalid_pagination'],
      ]) {
        const res = await get(`/v1/templates${query}`, own.testKey)
        assert.equal(res.statusCode, 422)
        assert.equal(errorOf(res).code, code)
      }
    })
  })

  describe('DELETE /v1/templates/{id}', () => {
    it('200 archives, repeats harmlessly, and blocks new submissions', async () => {
      const id = await createTemplateFor(t, keys.testKey)
      const res = await t.request(keys.testKey, { method: 'DELETE', url: `/v1/templates/${id}` })
      assert.equal(res.statusCode, 200)
      assert.deepEqual(res.json(), {
        id,
        object: 'template',
        status: 'archived',
        archived: true,
        archived_at: t.clock.now().toISOString(),
      })
      assert.equal(
        (await t.request(keys.testKey, { method: 'DELETE', url: `/v1/templates/${id}` })).statusCode,
        200,
      )
      assert.equal((await get(`/v1/templates/${id}`)).json().status, 'archived')
    })

    it("404 for another account's or environment's template, 400 for a malformed id", async () => {
      const id = await createTemplateFor(t, keys.testKey)
      const other = await t.account('other')
      for (const key of [other.testKey, keys.liveKey]) {
        assert.equal((await t.request(key, { method: 'DELETE', url: `/v1/templates/${id}` })).statusCode, 404)
        assert.equal((await get(`/v1/templates/${id}`, key)).statusCode, 404)
      }
      assert.equal((await get('/v1/templates/tpl_short')).statusCode, 400)
    })
  })
})
