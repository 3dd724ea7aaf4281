import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTemplateFor, fromPdfBody, post } from '../../test/documents.ts'
import { errorOf, startTestApp, type TestApp } from '../../test/harness.ts'

interface Item {
  id: string
  status: string
  template_id: string
  created_at: string
  submitters: Array<{ id: string; submission_id: string; role: string }>
}

describe('GET /v1/submissions', () => {
  let t: TestApp
  let keys: Awaited<ReturnType<TestApp['account']>>
  let templateId: string
  /** Every submission of the account, newest first. */
  const newestFirst: string[] = []
  const sent = new Set<string>()
  const drafts = new Set<string>()
  const fromTemplate = new Set<string>()

  const list = (query: string, key = keys.testKey) =>
    t.request(key, { method: 'GET', url: `/v1/submissions${query}` })

  const create = async (url: string, body: Record<string, unknown>) => {
    const res = await post(t, keys.testKey, url, body)
    assert.equal(res.statusCode, 201, res.body)
    newestFirst.unshift(res.json().id)
    t.clock.advance(1000)
    return res.json().id as string
  }

  before(async () => {
    t = await startTestApp()
    keys = await t.account()
    templateId = await createTemplateFor(t, keys.testKey)
    const pair = [
      { role: 'first', email: 'ann@example.eu' },
      { role: 'second', email: 'bob@example.eu' },
    ]
    for (let i = 0; i < 3; i++) sent.add(await create('/v1/submissions/from_pdf', await fromPdfBody()))
    for (let i = 0; i < 2; i++) {
      drafts.add(await create('/v1/submissions/from_pdf', await fromPdfBody({ send_email: false })))
    }
    for (let i = 0; i < 2; i++) {
      const id = await create('/v1/submissions', { template_id: templateId, submitters: pair })
      sent.add(id)
      fromTemplate.add(id)
    }
  })
  after(() => t.close())

  describe('happy', () => {
    it('200 newest first in the list envelope, each with its submitters', async () => {
      const res = await list('')
      assert.equal(res.statusCode, 200)
      const body = res.json()
      assert.deepEqual(Object.keys(body).sort(), ['data', 'has_more', 'next_cursor'])
      assert.equal(body.has_more, false)
      assert.equal(body.next_cursor, null)
      assert.deepEqual(
        body.data.map((s: Item) => s.id),
        newestFirst,
      )
      const newest: Item = body.data[0]
      assert.deepEqual(
        newest.submitters.map((s) => [s.role, s.submission_id]),
        [
          ['first', newest.id],
          ['second', newest.id],
        ],
      )
      for (const item of body.data as Item[]) {
        assert.ok(item.submitters.length > 0)
        assert.ok(item.submitters.every((s) => s.submission_id === item.id))
      }
    })

    it('200 pages by limit and cursor without gaps or duplicates', async () => {
      const seen: string[] = []
      let cursor: string | null = null
      const pages: boolean[] = []
      do {
        const res = await list(`?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)
        assert.equal(res.statusCode, 200)
        const body = res.json()
        assert.ok(body.data.length <= 3)
        seen.push(...body.data.map((s: Item) => s.id))
        pages.push(body.has_more)
        cursor = body.next_cursor
        assert.equal(body.has_more, cursor !== null)
      } while (cursor)
      assert.deepEqual(pages, [true, true, false])
      assert.deepEqual(seen, newestFirst)
    })

    it('200 has_more false and no cursor when the last page is exactly full', async () => {
      const body = (await list(`?limit=${newestFirst.length}`)).json()
      assert.equal(body.data.length, newestFirst.length)
      assert.equal(body.has_more, false)
      assert.equal(body.next_cursor, null)
    })

    it('200 filters by status: created without e-mail, sent by default', async () => {
      const created = (await list('?status=created')).json().data as Item[]
      assert.deepEqual(new Set(created.map((s) => s.id)), drafts)
      assert.ok(created.every((s) => s.status === 'created'))
      const sentOnes = (await list('?status=sent')).json().data as Item[]
      assert.deepEqual(new Set(sentOnes.map((s) => s.id)), sent)
      assert.ok(sentOnes.every((s) => s.status === 'sent'))
      assert.deepEqual((await list('?status=completed')).json().data, [])
    })

    it('200 filters by template_id, and by status and template_id together', async () => {
      const byTemplate = (await list(`?template_id=${templateId}`)).json().data as Item[]
      assert.deepEqual(new Set(byTemplate.map((s) => s.id)), fromTemplate)
      assert.ok(byTemplate.every((s) => s.template_id === templateId))
      const both = (await list(`?template_id=${templateId}&status=created`)).json()
      assert.deepEqual(both.data, [])
      assert.deepEqual((await list(`?template_id=tpl_${'Q'.repeat(24)}`)).json().data, [])
    })

    it('200 a filtered list pages with its own cursor', async () => {
      const first = (await list('?status=sent&limit=2')).json()
      assert.equal(first.has_more, true)
      const second = (
        await list(`?status=sent&limit=2&cursor=${encodeURIComponent(first.next_cursor)}`)
      ).json()
      const ids = [...first.data, ...second.data].map((s: Item) => s.id)
      assert.deepEqual(ids, newestFirst.filter((id) => sent.has(id)).slice(0, 4))
    })
  })

  describe('errors', () => {
    for (const [query, code] of [
      ['?status=bogus', 'invalid_status'],
      ['?status=pending', 'invalid_status'],
      ['?status=SENT', 'invalid_status'],
      ['?template_id=tpl_123', 'invalid_template_id'],
      [`?template_id=sub_${'a'.repeat(24)}`, 'invalid_template_id'],
      ['?limit=0', 'invalid_pagination'],
      ['?limit=101', 'invalid_pagination'],
      ['?limit=abc', 'invalid_pagination'],
      ['?cursor=garbage', 'invalid_pagination'],
      ['?cursor=', 'invalid_pagination'],
      ['?type=submission.created', 'invalid_request'],
    ] as const) {
      it(`422 ${code} for ${query}`, async () => {
        const res = await list(query)
        assert.equal(res.statusCode, 422)
        assert.equal(errorOf(res).code, code)
        assert.equal(errorOf(res).type, 'invalid_request_error')
      })
    }

    it('422 invalid_pagination for a cursor reused with other filters', async () => {
      const { next_cursor: cursor } = (await list('?status=sent&limit=1')).json()
      const res = await list(`?status=created&limit=1&cursor=${encodeURIComponent(cursor)}`)
      assert.equal(res.statusCode, 422)
      assert.equal(errorOf(res).code, 'invalid_pagination')
    })
  })

  describe('security', () => {
    it("200 never lists another account's or the other environment's submissions", async () => {
      const other = await t.account('other')
      const res = await post(t, other.testKey, '/v1/submissions/from_pdf', await fromPdfBody())
      assert.equal(res.statusCode, 201)
      const theirs = (await list('?limit=100', other.testKey)).json().data as Item[]
      assert.deepEqual(
        theirs.map((s) => s.id),
        [res.json().id],
      )
      assert.deepEqual((await list('?limit=100', keys.liveKey)).json().data, [])
      const mine = (await list('?limit=100')).json().data as Item[]
      assert.deepEqual(
        mine.map((s) => s.id),
        newestFirst,
      )
    })

    it('422 invalid_pagination for a cursor of the other environment', async () => {
      const { next_cursor: cursor } = (await list('?limit=1')).json()
      const res = await list(`?limit=1&cursor=${encodeURIComponent(cursor)}`, keys.liveKey)
      assert.equal(res.statusCode, 422)
      assert.equal(errorOf(res).code, 'invalid_pagination')
    })
  })
})
