import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTemplateFor, fromPdfBody, post } from '../../test/documents.ts'
import { errorOf, startTestApp, type TestApp } from '../../test/harness.ts'

const TINY_PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='

interface Item {
  id: string
  object: string
  submission_id: string
  email: string
  status: string
  signing_url: string
}

describe('GET /v1/submitters', () => {
  let t: TestApp
  let keys: Awaited<ReturnType<TestApp['account']>>
  let fromTemplate: string
  let fromPdf: string
  let withWitness: string
  /** Every submitter id of the account. */
  const all = new Set<string>()

  const list = (query: string, key = keys.testKey) =>
    t.request(key, { method: 'GET', url: `/v1/submitters${query}` })
  const ids = (items: Item[]) => new Set(items.map((s) => s.id))

  const create = async (url: string, body: Record<string, unknown>) => {
    const res = await post(t, keys.testKey, url, body)
    assert.equal(res.statusCode, 201, res.body)
    for (const s of res.json().submitters) all.add(s.id)
    t.clock.advance(1000)
    return res.json().id as string
  }

  before(async () => {
    t = await startTestApp()
    keys = await t.account()
    const templateId = await createTemplateFor(t, keys.testKey)
    fromTemplate = await create('/v1/submissions', {
      template_id: templateId,
      submitters: [
        { role: 'first', email: 'Ann@Example.EU' },
        { role: 'second', email: 'bob@example.eu' },
      ],
    })
    const upperCase = [{ role: 'signer', email: 'ANN@example.eu' }]
    fromPdf = await create('/v1/submissions/from_pdf', await fromPdfBody({ submitters: upperCase }))
    const witnessBody = await fromPdfBody({
      submitters: [
        { role: 'signer', email: 'carol@example.eu' },
        {
          role: 'witness',
          email: 'wit@example.eu',
          completed: true,
          fields: [{ name: 'W', default_value: TINY_PNG }],
        },
      ],
    })
    const [doc] = witnessBody.documents as Array<{ fields: unknown[] }>
    doc!.fields.push({
      name: 'W',
      type: 'signature',
      role: 'witness',
      areas: [{ page: 1, x: 0.1, y: 0.1, w: 0.2, h: 0.05 }],
    })
    withWitness = await create('/v1/submissions/from_pdf', witnessBody)
  })
  after(() => t.close())

  describe('happy', () => {
    it('200 every submitter of the account, newest first, in the list envelope', async () => {
      const res = await list('')
      assert.equal(res.statusCode, 200)
      const body = res.json()
      assert.deepEqual(Object.keys(body).sort(), ['data', 'has_more', 'next_cursor'])
      assert.deepEqual(ids(body.data), all)
      assert.equal(body.has_more, false)
      assert.equal(body.next_cursor, null)
      assert.ok(body.data.every((s: Item) => s.object === 'submitter' && s.signing_url.includes('/s/')))
      const newestSubmission = body.data.slice(0, 2).map((s: Item) => s.submission_id)
      assert.deepEqual(newestSubmission, [withWitness, withWitness])
      assert.equal(body.data.at(-1).submission_id, fromTemplate)
    })

    it('200 filters by submission_id', async () => {
      const body = (await list(`?submission_id=${fromTemplate}`)).json()
      assert.deepEqual(body.data.map((s: Item) => s.email).sort(), ['ann@example.eu', 'bob@example.eu'])
      assert.ok(body.data.every((s: Item) => s.submission_id === fromTemplate))
      assert.equal((await list(`?submission_id=${fromPdf}`)).json().data.length, 1)
      assert.deepEqual((await list(`?submission_id=sub_${'Q'.repeat(24)}`)).json().data, [])
    })

    it('200 filters by status', async () => {
      const preSigned = (await list('?status=pre_signed')).json().data as Item[]
      assert.deepEqual(
        preSigned.map((s) => [s.email, s.submission_id]),
        [['wit@example.eu', withWitness]],
      )
      const pending = (await list('?status=pending')).json().data as Item[]
      assert.equal(pending.length, all.size - 1)
      assert.ok(pending.every((s) => s.status === 'pending'))
      assert.deepEqual((await list('?status=signed')).json().data, [])
    })

    it('200 filters by e-mail, whatever its case in the filter or at creation', async () => {
      for (const email of ['ann@example.eu', 'ANN@EXAMPLE.EU', 'Ann@Example.EU']) {
        const data = (await list(`?email=${encodeURIComponent(email)}`)).json().data as Item[]
        assert.deepEqual(
          data.map((s) => [s.email.toLowerCase(), s.submission_id]),
          [
            ['ann@example.eu', fromPdf],
            ['ann@example.eu', fromTemplate],
          ],
          email,
        )
      }
      assert.deepEqual((await list('?email=nobody%40example.eu')).json().data, [])
    })

    it('200 combines filters and pages them with their own cursor', async () => {
      const first = (await list('?status=pending&limit=2')).json()
      assert.equal(first.data.length, 2)
      assert.equal(first.has_more, true)
      const cursor = encodeURIComponent(first.next_cursor)
      const rest = (await list(`?status=pending&limit=2&cursor=${cursor}`)).json()
      const seen = [...first.data, ...rest.data].map((s: Item) => s.id)
      assert.equal(new Set(seen).size, seen.length, 'no duplicates')
      assert.equal(rest.has_more, false)
      assert.equal(seen.length, all.size - 1)
      const both = (await list(`?submission_id=${withWitness}&status=pending`)).json().data as Item[]
      assert.deepEqual(
        both.map((s) => s.email),
        ['carol@example.eu'],
      )
    })

    it('200 an e-mail filter pages with its cursor', async () => {
      const first = (await list('?email=ANN%40EXAMPLE.EU&limit=1')).json()
      assert.equal(first.has_more, true)
      const cursor = encodeURIComponent(first.next_cursor)
      const second = (await list(`?email=ANN%40EXAMPLE.EU&limit=1&cursor=${cursor}`)).json()
      assert.deepEqual(
        [...first.data, ...second.data].map((s: Item) => s.submission_id),
        [fromPdf, fromTemplate],
      )
      assert.equal(second.has_more, false)
    })
  })

  describe('errors', () => {
    // 310 + '@example.eu' (11) = 321 characters, one past docs/api.md#limits.
    for (const [query, code] of [
      [`?email=${'a'.repeat(310)}%40example.eu`, 'invalid_email'],
      ['?email=', 'invalid_email'],
      ['?status=sent', 'invalid_status'],
      ['?status=bogus', 'invalid_status'],
      ['?submission_id=sub_1', 'invalid_submission_id'],
      [`?submission_id=sbm_${'a'.repeat(24)}`, 'invalid_submission_id'],
      ['?limit=0', 'invalid_pagination'],
      ['?limit=101', 'invalid_pagination'],
      ['?cursor=nope', 'invalid_pagination'],
      ['?template_id=tpl_1', 'invalid_request'],
    ] as const) {
      it(`422 ${code} for ${query.length > 60 ? `${query.slice(0, 7)}<${query.length - 9} characters>` : query}`, async () => {
        const res = await list(query)
        assert.equal(res.statusCode, 422)
        assert.equal(errorOf(res).code, code)
        assert.equal(errorOf(res).type, 'invalid_request_error')
      })
    }

    it('200 for an e-mail filter of exactly 320 characters', async () => {
      const res = await list(`?email=${'a'.repeat(309)}%40example.eu`)
      assert.equal(res.statusCode, 200)
      assert.deepEqual(res.json().data, [])
    })
  })

  describe('security', () => {
    it("200 never lists another account's or the other environment's submitters", async () => {
      const other = await t.account('other')
      const res = await post(t, other.testKey, '/v1/submissions/from_pdf', await fromPdfBody())
      assert.equal(res.statusCode, 201)
      const theirs = (await list('?limit=100', other.testKey)).json().data as Item[]
      assert.deepEqual(
        theirs.map((s) => s.id),
        [res.json().submitters[0].id],
      )
      assert.deepEqual(ids((await list('?limit=100')).json().data), all)
      assert.deepEqual((await list('?limit=100', keys.liveKey)).json().data, [])
      assert.deepEqual(
        ids((await list('?email=ann%40example.eu', other.testKey)).json().data),
        new Set([res.json().submitters[0].id]),
      )
      assert.deepEqual((await list(`?submission_id=${fromPdf}`, other.testKey)).json().data, [])
    })
  })
})
