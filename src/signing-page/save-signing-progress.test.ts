import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startTestApp, type TestApp } from '../../test/harness.ts'
import {
  type Created,
  createSubmission,
  everyTypeBody,
  FIRST_VALUES,
  guardedBody,
  refused,
  SIGNATURE,
  signer,
  verifiedSession,
} from '../../test/signing.ts'
import { expireDueSubmissions } from '../submissions/expire-submissions.ts'

const DAY = 24 * 3600_000

describe('PATCH /s/{slug}/progress and /embed/{jwt}/progress', () => {
  let t: TestApp
  let key: string
  before(async () => {
    t = await startTestApp()
    key = (await t.account()).testKey
  })
  after(() => t.close())

  const create = async (extra: Record<string, unknown> = {}) =>
    createSubmission(t, key, await everyTypeBody(['first', 'second'], extra))
  const progressOf = async (created: Created, index: number) =>
    (await signer(t, created.submitters[index]!, 'form')).json().progress
  const rows = async (submissionId: string) =>
    t.deps.db.selectFrom('signing_progress').selectAll().where('submission_id', '=', submissionId).execute()

  describe('200: saved, merged, and given back by the form', () => {
    it('keeps the values and gives them back to the same signer, by slug and by embed token', async () => {
      const created = await create()
      const first = created.submitters[0]!
      assert.equal(await progressOf(created, 0), null)
      const saved = await signer(t, first, 'progress', { values: { Name: 'Ann', Date: '2026-11-28' } })
      assert.equal(saved.statusCode, 200, saved.body)
      assert.deepEqual(saved.json(), {
        object: 'signing_progress',
        fields: ['Name', 'Date'],
        saved_at: t.clock.now().toISOString(),
      })
      const again = await signer(t, first, 'progress', { values: { Amount: 12.5, Name: null } }, 'embed')
      assert.equal(again.statusCode, 200, again.body)
      assert.deepEqual(again.json().fields.sort(), ['Amount', 'Date'])
      const form = (await signer(t, first, 'form', undefined, 'embed')).json()
      assert.deepEqual(form.progress.values, { Date: '2026-11-28', Amount: 12.5 })
      assert.equal(form.progress.saved_at, t.clock.now().toISOString())
      // Never counted as signed: the signer's own values and status are untouched.
      assert.equal(form.submitter.status, 'pending')
      assert.equal(form.fields.find((f: { name: string }) => f.name === 'Date').value, null)
    })

    it('keeps a signature image used by several fields once, and gives it back whole', async () => {
      const created = await create()
      const values = { Signature: SIGNATURE, Initials: FIRST_VALUES.Initials, Agree: true }
      const res = await signer(t, created.submitters[0]!, 'progress', { values })
      assert.equal(res.statusCode, 200, res.body)
      assert.deepEqual((await progressOf(created, 0)).values, values)
      const [row] = await rows(created.id)
      assert.equal(row!.progress.split(SIGNATURE).length - 1, 1, 'the image is kept once')
    })

    it('an emptied progress leaves no row', async () => {
      const created = await create()
      await signer(t, created.submitters[0]!, 'progress', { values: { Name: 'Ann' } })
      const res = await signer(t, created.submitters[0]!, 'progress', { values: { Name: null } })
      assert.deepEqual(res.json().fields, [])
      assert.equal((await rows(created.id)).length, 0)
      assert.equal(await progressOf(created, 0), null)
    })
  })

  describe('never visible to anyone else', () => {
    it("another signer's form, the API and the events show nothing of it", async () => {
      const created = await create({ signing_order: 'random' })
      await signer(t, created.submitters[0]!, 'progress', { values: { Name: 'Secret Ann' } })
      const second = await signer(t, created.submitters[1]!, 'form')
      assert.equal(second.json().progress, null)
      assert.ok(!second.body.includes('Secret Ann'))
      const read = await t.request(key, { method: 'GET', url: `/v1/submissions/${created.id}` })
      assert.ok(!read.body.includes('Secret Ann'))
      const events = await t.request(key, { method: 'GET', url: `/v1/events?submission_id=${created.id}` })
      assert.ok(!events.body.includes('Secret Ann'))
    })

    it('withheld from a guarded signer until the e-mail code is verified', async () => {
      const created = await createSubmission(t, key, await guardedBody(['first', 'second'], [0]))
      const first = created.submitters[0]!
      refused(await signer(t, first, 'progress', { values: { Name: 'Ann' } }), 403, 'email_2fa_required')
      const { session } = await verifiedSession(t, first)
      const headers = { 'paraph-signer-session': session }
      const saved = await signer(t, first, 'progress', { values: { Name: 'Ann' } }, 'link', headers)
      assert.equal(saved.statusCode, 200, saved.body)
      assert.equal((await signer(t, first, 'form')).json().progress, null)
      const seen = await signer(t, first, 'form', undefined, 'link', headers)
      assert.deepEqual(seen.json().progress.values, { Name: 'Ann' })
    })
  })

  describe('deleted with what ends it', () => {
    it('on sign, in its transaction; a save after the signature is refused and brings nothing back', async () => {
      const created = await create()
      const first = created.submitters[0]!
      await signer(t, first, 'progress', { values: { Name: 'Ann', Signature: SIGNATURE } })
      const signed = await signer(t, first, 'sign', { values: FIRST_VALUES })
      assert.equal(signed.statusCode, 200, signed.body)
      assert.equal(signed.json().progress, null)
      assert.equal((await rows(created.id)).length, 0)
      refused(
        await signer(t, first, 'progress', { values: { Name: 'Late' } }),
        409,
        'submitter_already_finalized',
      )
      assert.equal((await rows(created.id)).length, 0)
    })

    it('on decline, every signer’s', async () => {
      const created = await create({ signing_order: 'random' })
      await signer(t, created.submitters[0]!, 'progress', { values: { Name: 'Ann' } })
      await signer(t, created.submitters[1]!, 'progress', { values: { 'second signature': SIGNATURE } })
      assert.equal((await rows(created.id)).length, 2)
      const declined = await signer(t, created.submitters[1]!, 'decline', { reason: 'No.' })
      assert.equal(declined.statusCode, 200, declined.body)
      assert.equal((await rows(created.id)).length, 0)
    })

    it('on cancel, in the transaction of the move', async () => {
      const created = await create()
      await signer(t, created.submitters[0]!, 'progress', { values: { Name: 'Ann' } })
      const other = await create()
      await signer(t, other.submitters[0]!, 'progress', { values: { Name: 'Bob' } })
      const res = await t.request(key, { method: 'DELETE', url: `/v1/submissions/${created.id}` })
      assert.equal(res.statusCode, 200, res.body)
      assert.equal((await rows(created.id)).length, 0)
      assert.equal((await rows(other.id)).length, 1, "another submission's progress stays")
      refused(
        await signer(t, created.submitters[0]!, 'progress', { values: { Name: 'Ann' } }),
        410,
        'submission_not_active',
      )
    })
  })

  describe('deleted when the expiry sweep ends the submission', () => {
    it('in the transaction of the expire move', async () => {
      const created = await create({ expires_at: new Date(t.clock.now().getTime() + DAY).toISOString() })
      await signer(t, created.submitters[0]!, 'progress', { values: { Name: 'Ann' } })
      t.clock.advance(DAY + 1000)
      assert.ok((await expireDueSubmissions(t.deps)) >= 1)
      assert.equal((await rows(created.id)).length, 0)
    })
  })

  describe('422 invalid_field_value', () => {
    it("another signer's field, a read-only or unknown field, a value of the wrong type", async () => {
      const created = await create()
      const first = created.submitters[0]!
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ 'second signature': SIGNATURE }, 'values.second signature'],
        [{ Nope: 'x' }, 'values.Nope'],
        [{ Date: '28/11/2026' }, 'values.Date'],
        [{ Date: '1800-01-01' }, 'values.Date'],
        [{ Plan: 'gold' }, 'values.Plan'],
        [{ Signature: 'data:image/png;base64,AAAA' }, 'values.Signature'],
      ]
      for (const [values, param] of cases) {
        const res = await signer(t, first, 'progress', { values })
        refused(res, 422, 'invalid_field_value')
        assert.equal(res.json().error.param, param)
      }
      assert.equal((await rows(created.id)).length, 0)
    })
  })

  describe('refused where signing is', () => {
    it('409 not_your_turn for a later signer in preserved order', async () => {
      const created = await create()
      refused(
        await signer(t, created.submitters[1]!, 'progress', { values: { 'second signature': SIGNATURE } }),
        409,
        'not_your_turn',
      )
    })

    it('410 submission_not_active once expired, even before the sweep', async () => {
      const created = await create({ expires_at: new Date(t.clock.now().getTime() + DAY).toISOString() })
      t.clock.advance(DAY + 1000)
      refused(
        await signer(t, created.submitters[0]!, 'progress', { values: { Name: 'Ann' } }),
        410,
        'submission_not_active',
      )
    })
  })

  describe('413 progress_too_large', () => {
    it('when what one signer keeps would pass 2 MiB, each image counted once', async () => {
      const body = await everyTypeBody(['first', 'second'])
      const more = ['Signature 2', 'Signature 3'].map((name, i) => ({
        name,
        type: 'signature',
        role: 'first',
        areas: [{ page: 2, x: 0.5, y: 0.1 + i * 0.1, w: 0.3, h: 0.05 }],
      }))
      ;(body.documents[0]!.fields as unknown[]).push(...more)
      const created = await createSubmission(t, key, body)
      const first = created.submitters[0]!
      // 500 KB each, a PNG by its first bytes (progress does not read pixels): 683 KB in base64.
      const big = (seed: number) => {
        const bytes = Buffer.alloc(500 * 1000, seed)
        Buffer.from('89504e470d0a1a0a', 'hex').copy(bytes)
        return `data:image/png;base64,${bytes.toString('base64')}`
      }
      // One image on four fields (two requests: a body is at most 2 MiB) is kept once.
      for (const names of [
        ['Signature', 'Initials'],
        ['Signature 2', 'Signature 3'],
      ]) {
        const values = Object.fromEntries(names.map((name) => [name, big(1)]))
        const once = await signer(t, first, 'progress', { values })
        assert.equal(once.statusCode, 200, once.body)
      }
      const two = await signer(t, first, 'progress', { values: { Signature: big(2), Initials: big(3) } })
      assert.equal(two.statusCode, 200, two.body)
      refused(
        await signer(t, first, 'progress', { values: { 'Signature 2': big(4), 'Signature 3': big(5) } }),
        413,
        'progress_too_large',
      )
      // Refused whole: what was kept before stays.
      const kept = (await progressOf(created, 0)).values
      assert.equal(kept['Signature 2'], big(1))
    })
  })
})
