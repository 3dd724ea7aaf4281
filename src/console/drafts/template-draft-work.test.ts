// The editor's work kept on its draft (docs/console.md#the-editors-work-kept-as-a-draft): saved with
// PATCH, read back with GET, offered to resume by the list, discarded with DELETE, no longer listed
// once made a template; scoped to the account, environment (and, for the list and DELETE, member).
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { PageSizes } from 'pdf-lib'
import { type ConsoleClient, signedInMember } from '../../../test/console/console-client.ts'
import { pdfOfPages } from '../../../test/fixtures/pdfs.ts'
import { errorOf, startTestApp, type TestApp } from '../../../test/harness.ts'

const FIELD = {
  name: 'Tenant signature',
  type: 'signature',
  role: 'Tenant',
  required: true,
  readonly: false,
  areas: [{ page: 1, x: 0.1, y: 0.7, w: 0.3, h: 0.06 }],
}

describe('template drafts: the editor work (PATCH, GET, list, DELETE /console/api/template_drafts)', () => {
  let t: TestApp
  let member: ConsoleClient
  let colleague: ConsoleClient
  let accountId: string
  let pdf: Buffer
  before(async () => {
    t = await startTestApp()
    accountId = (await t.account('Acme')).accountId
    member = await signedInMember(t, accountId, { role: 'editor' })
    colleague = await signedInMember(t, accountId, { role: 'admin' })
    pdf = Buffer.from(await pdfOfPages([PageSizes.A4]))
  })
  after(() => t.close())

  const upload = async (client: ConsoleClient, name = 'Lease') => {
    const res = await client.request({
      method: 'POST',
      url: `/console/api/template_drafts?name=${encodeURIComponent(name)}`,
      headers: { 'content-type': 'application/pdf' },
      payload: pdf,
    })
    assert.equal(res.statusCode, 201, res.body)
    return res.json()
  }
  const patch = (client: ConsoleClient, id: string, payload: object) =>
    client.request({ method: 'PATCH', url: `/console/api/template_drafts/${id}`, payload })
  const list = async (client: ConsoleClient) => {
    const res = await client.request({ method: 'GET', url: '/console/api/template_drafts' })
    assert.equal(res.statusCode, 200, res.body)
    return res.json().data.map((d: { id: string }) => d.id)
  }

  describe('happy', () => {
    it('201 a new draft carries its starting work: the file name, no slug, source pdf, never saved', async () => {
      const draft = await upload(member)
      assert.equal(draft.name, 'Lease')
      assert.equal(draft.slug, '')
      assert.equal(draft.source, 'pdf')
      assert.equal(draft.updated_at, null)
      assert.deepEqual(draft.fields, [])
    })

    it('200 PATCH keeps the work, half-typed too; GET answers it as saved', async () => {
      const draft = await upload(member)
      t.clock.advance(60_000)
      const halfTyped = { ...FIELD, name: 'Choice', type: 'radio', options: ['Yes', ''] }
      const work = { name: 'Lease 2026', slug: 'lease-', fields: [FIELD, halfTyped] }
      const res = await patch(member, draft.id, work)
      assert.equal(res.statusCode, 200, res.body)
      assert.equal(res.json().updated_at, t.clock.now().toISOString())
      const read = await member.request({ method: 'GET', url: `/console/api/template_drafts/${draft.id}` })
      assert.equal(read.statusCode, 200)
      const again = read.json()
      assert.deepEqual([again.name, again.slug, again.fields], [work.name, work.slug, work.fields])
      assert.deepEqual(again.pages, draft.pages)
      assert.equal(again.expires_at, draft.expires_at, 'saving does not lengthen the draft')
      // An empty field name is kept too (the save as a template refuses it, not the draft).
      const blank = await patch(member, draft.id, { ...work, fields: [{ ...FIELD, name: '' }] })
      assert.equal(blank.statusCode, 200, blank.body)
    })

    it('200 the list holds the member own open drafts, last worked on first; made a template, one leaves it', async () => {
      const older = await upload(member, 'Older')
      t.clock.advance(1000)
      const newer = await upload(member, 'Newer')
      const theirs = await upload(colleague, 'Theirs')
      t.clock.advance(1000)
      assert.equal(
        (await patch(member, older.id, { name: 'Older', slug: '', fields: [FIELD] })).statusCode,
        200,
      )
      const mine = await list(member)
      assert.equal(mine[0], older.id)
      assert.ok(mine.includes(newer.id))
      assert.ok(!mine.includes(theirs.id), "a colleague's draft is not offered")
      const saved = await member.request({
        method: 'POST',
        url: `/console/api/template_drafts/${older.id}/template`,
        headers: { 'idempotency-key': `save-${older.id}` },
        payload: { name: 'Older', fields: [FIELD] },
      })
      assert.equal(saved.statusCode, 201, saved.body)
      assert.ok(!(await list(member)).includes(older.id))
    })

    it('200 DELETE discards the member own draft: gone from the list, 404 afterwards', async () => {
      const draft = await upload(member)
      const res = await member.request({ method: 'DELETE', url: `/console/api/template_drafts/${draft.id}` })
      assert.equal(res.statusCode, 200, res.body)
      assert.deepEqual(res.json(), { id: draft.id, object: 'template_draft', discarded: true })
      assert.ok(!(await list(member)).includes(draft.id))
      const read = await member.request({ method: 'GET', url: `/console/api/template_drafts/${draft.id}` })
      assert.equal(read.statusCode, 404)
    })

    it('201 a duplicated template starts as source template with its fields', async () => {
      const draft = await upload(member)
      const made = await member.request({
        method: 'POST',
        url: `/console/api/template_drafts/${draft.id}/template`,
        headers: { 'idempotency-key': `made-${draft.id}` },
        payload: { name: 'Made', fields: [FIELD] },
      })
      assert.equal(made.statusCode, 201, made.body)
      const copy = await member.request({
        method: 'POST',
        url: `/console/api/template_drafts/from_template/${made.json().id}`,
      })
      assert.equal(copy.statusCode, 201, copy.body)
      assert.deepEqual(
        [copy.json().source, copy.json().name, copy.json().fields.length],
        ['template', 'Made', 1],
      )
    })
  })

  describe('errors', () => {
    it('422 for a body that is not the whole work, or a field with no area', async () => {
      const draft = await upload(member)
      const partial = await patch(member, draft.id, { name: 'X' })
      assert.equal(partial.statusCode, 422)
      const noArea = await patch(member, draft.id, { name: 'X', slug: '', fields: [{ ...FIELD, areas: [] }] })
      assert.equal(noArea.statusCode, 422)
    })
  })

  describe('security', () => {
    it("404 for another account's draft, the other environment's, a colleague's DELETE; 403 without CSRF", async () => {
      const draft = await upload(member)
      const other = await signedInMember(t, (await t.account('Other')).accountId)
      const url = `/console/api/template_drafts/${draft.id}`
      assert.equal((await other.request({ method: 'GET', url })).statusCode, 404)
      assert.equal((await patch(other, draft.id, { name: 'X', slug: '', fields: [] })).statusCode, 404)
      assert.equal((await other.request({ method: 'DELETE', url })).statusCode, 404)
      assert.equal((await colleague.request({ method: 'DELETE', url })).statusCode, 404)
      const noCsrf = await member.request(
        { method: 'PATCH', url, payload: { name: 'X', slug: '', fields: [] } },
        { csrf: false },
      )
      assert.equal(noCsrf.statusCode, 403)
      assert.equal(errorOf(noCsrf).code, 'csrf_token_invalid')
      await member.request({
        method: 'POST',
        url: '/console/api/session/environment',
        payload: { environment: 'live' },
      })
      assert.equal((await member.request({ method: 'GET', url })).statusCode, 404)
      assert.ok(!(await list(member)).includes(draft.id))
      await member.request({
        method: 'POST',
        url: '/console/api/session/environment',
        payload: { environment: 'test' },
      })
      assert.equal((await member.request({ method: 'GET', url })).statusCode, 200)
    })
  })
})
