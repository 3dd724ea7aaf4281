// A member of a signer group on the signer routes (docs/api.md#signer-groups): their own link and
// embed URL, the first member to sign signs for the role (two at the same instant: one 200, one
// 409), the others' links then end with `signed_by_other`, a member's decline declines for the role,
// and each member's e-mail code and saved progress are their own.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import {
  ANN,
  BOB,
  type CreatedGroup,
  groupBody,
  memberCode,
  memberOf,
  memberRows,
} from '../../test/groups.ts'
import { startTestApp, type TestApp } from '../../test/harness.ts'
import {
  createSubmission,
  eventsOf,
  FIRST_VALUES,
  refused,
  signer,
  submissionRow,
  submitterRow,
} from '../../test/signing.ts'

describe('a signer group’s members on the signer routes', () => {
  let t: TestApp
  let key: string
  before(async () => {
    t = await startTestApp()
    key = (await t.account()).testKey
  })
  after(() => t.close())

  const create = async (group: Record<string, unknown> = {}, roles = ['first']): Promise<CreatedGroup> =>
    (await createSubmission(
      t,
      key,
      await groupBody(roles, 0, { signing_order: 'random' }, group),
    )) as CreatedGroup
  const signed = (e: { type: string }) => e.type === 'submitter.signed'

  describe('happy', () => {
    it('a member’s link and embed URL open the form with their own address and name, state ready', async () => {
      const created = await create()
      for (const via of ['link', 'embed'] as const) {
        const bob = await signer(t, memberOf(created, 0, 1), 'form', undefined, via)
        assert.equal(bob.statusCode, 200, bob.body)
        const form = bob.json()
        assert.equal(form.state, 'ready')
        assert.deepEqual(form.submitter, {
          id: created.submitters[0]!.id,
          email: BOB,
          name: 'The Martins',
          role: 'first',
          status: 'pending',
        })
        assert.equal(form.signed_by, null)
        assert.ok(form.documents.length > 0)
      }
    })

    it('the first member to sign signs for the role: the group takes their address and name, the others are superseded', async () => {
      const created = await create({}, ['first', 'second'])
      const group = created.submitters[0]!
      const opened = await signer(t, memberOf(created, 0, 1), 'open')
      assert.equal(opened.statusCode, 200, opened.body)
      const res = await signer(t, memberOf(created, 0, 0), 'sign', { values: FIRST_VALUES })
      assert.equal(res.statusCode, 200, res.body)
      assert.equal(res.json().state, 'signed')
      assert.equal(res.json().submitter.email, ANN)
      const row = await submitterRow(t, group.id)
      assert.deepEqual([row.status, row.email, row.email_key, row.name], ['signed', ANN, ANN, 'Ann Martin'])
      assert.deepEqual(
        (await memberRows(t, group.id)).map((m) => [m.email, m.status, m.signed_at]),
        [
          [ANN, 'signed', row.signed_at],
          [BOB, 'superseded', null],
        ],
      )
      assert.equal((await submissionRow(t, created.id)).status, 'partially_signed')
      const events = await eventsOf(t, created.id)
      const opening = events.find((e) => e.type === 'submitter.opened')!
      assert.deepEqual(JSON.parse(opening.data).member.email, BOB, 'the opening names the member who opened')
      const signing = events.filter(signed)
      assert.equal(signing.length, 1)
      assert.deepEqual(JSON.parse(signing[0]!.data).member, {
        id: memberOf(created, 0, 0).id,
        email: ANN,
        name: 'Ann Martin',
      })
      const read = (await t.request(key, { method: 'GET', url: `/v1/submitters/${group.id}` })).json()
      assert.deepEqual([read.email, read.name, read.status], [ANN, 'Ann Martin', 'signed'])
      assert.deepEqual(
        read.members.map((m: { status: string }) => m.status),
        ['signed', 'superseded'],
      )
    })

    it('two members signing at the same instant: exactly one 200, one 409 submitter_already_finalized, one submitter.signed, the winner’s values', async () => {
      const created = await create()
      const group = created.submitters[0]!
      const annValues = { ...FIRST_VALUES, Name: 'Ann Martin' }
      const bobValues = { ...FIRST_VALUES, Name: 'Bob Martin' }
      const [a, b] = await Promise.all([
        signer(t, memberOf(created, 0, 0), 'sign', { values: annValues }),
        signer(t, memberOf(created, 0, 1), 'sign', { values: bobValues }, 'embed'),
      ])
      assert.deepEqual([a.statusCode, b.statusCode].sort(), [200, 409], `${a.body} ${b.body}`)
      const [won, lost] = a.statusCode === 200 ? [a, b] : [b, a]
      refused(lost, 409, 'submitter_already_finalized', /another member of your group, signed/)
      const winner = won === a ? { email: ANN, name: 'Ann Martin' } : { email: BOB, name: 'Bob Martin' }
      const row = await submitterRow(t, group.id)
      assert.equal(row.email, winner.email)
      assert.equal(JSON.parse(row.values).Name, winner.name, 'the values of the winner only')
      const events = (await eventsOf(t, created.id)).filter(signed)
      assert.equal(events.length, 1)
      assert.equal(JSON.parse(events[0]!.data).member.email, winner.email)
      assert.deepEqual((await memberRows(t, group.id)).map((m) => m.status).sort(), ['signed', 'superseded'])
    })

    it('a superseded member’s link ends: signed_by_other with only who signed and when; open changes nothing', async () => {
      const created = await create({}, ['first', 'second'])
      const bob = memberOf(created, 0, 1)
      await signer(t, memberOf(created, 0, 0), 'sign', { values: FIRST_VALUES })
      const signedAt = (await submitterRow(t, created.submitters[0]!.id)).signed_at
      for (const via of ['link', 'embed'] as const) {
        const form = (await signer(t, bob, 'form', undefined, via)).json()
        assert.equal(form.state, 'signed_by_other')
        assert.deepEqual(form.signed_by, { name: 'Ann Martin', signed_at: signedAt })
        assert.deepEqual([form.documents, form.fields], [[], []])
        assert.deepEqual(
          [form.current_pdf_url, form.signed_pdf_url, form.redirect_url, form.progress, form.submission.name],
          [null, null, null, null, null],
        )
        const opened = await signer(t, bob, 'open', undefined, via)
        assert.equal(opened.statusCode, 200, opened.body)
        assert.equal(opened.json().state, 'signed_by_other')
      }
      refused(await signer(t, bob, 'sign', { values: FIRST_VALUES }), 409, 'submitter_already_finalized')
      refused(await signer(t, bob, 'decline', { reason: 'no' }), 409, 'submitter_already_finalized')
      refused(await signer(t, bob, 'progress', { values: { Name: 'x' } }), 409, 'submitter_already_finalized')
      const page = await t.app.inject({
        method: 'GET',
        url: `${new URL(bob.signing_url).pathname}/pages/0/1`,
      })
      refused(page, 410, 'submission_not_active', /signed by another member of your group/)
    })

    it('a member who declines declines for the role: the submission ends, the group shows who declined', async () => {
      const created = await create()
      const group = created.submitters[0]!
      const res = await signer(t, memberOf(created, 0, 1), 'decline', { reason: 'We changed our minds' })
      assert.equal(res.statusCode, 200, res.body)
      assert.equal(res.json().state, 'declined')
      assert.equal((await submissionRow(t, created.id)).status, 'declined')
      const row = await submitterRow(t, group.id)
      assert.deepEqual([row.status, row.email, row.name], ['declined', BOB, 'The Martins'])
      assert.deepEqual(
        (await memberRows(t, group.id)).map((m) => m.status),
        ['pending', 'declined'],
      )
      assert.equal((await signer(t, memberOf(created, 0, 0), 'form')).json().state, 'declined')
    })
  })

  describe('each member’s own', () => {
    it('e-mail codes go to each member’s address; one member’s code or session unlocks no other', async () => {
      const created = await create({ require_email_2fa: true })
      const [ann, bob] = [memberOf(created, 0, 0), memberOf(created, 0, 1)]
      const group = created.submitters[0]!.id
      const sentAnn = await signer(t, ann, 'email_2fa/send')
      const sentBob = await signer(t, bob, 'email_2fa/send')
      assert.deepEqual(
        [sentAnn.statusCode, sentBob.statusCode],
        [200, 200],
        `${sentAnn.body} ${sentBob.body}`,
      )
      assert.deepEqual([sentAnn.json().sent_to, sentBob.json().sent_to], [ANN, BOB])
      const annCode = await memberCode(t, group, ann.id)
      const bobCode = await memberCode(t, group, bob.id)
      if (annCode !== bobCode)
        refused(await signer(t, bob, 'email_2fa/verify', { code: annCode }), 422, 'invalid_code')
      const verified = await signer(t, ann, 'email_2fa/verify', { code: annCode })
      assert.equal(verified.statusCode, 200, verified.body)
      const session = { 'paraph-signer-session': verified.json().session }
      assert.equal((await signer(t, ann, 'form', undefined, 'link', session)).json().state, 'ready')
      assert.equal(
        (await signer(t, bob, 'form', undefined, 'link', session)).json().state,
        'email_2fa_required',
      )
      const verifiedAt = (await memberRows(t, group))[0]!.email_2fa_verified_at
      assert.ok(verifiedAt)
      assert.equal(
        (await submitterRow(t, group)).email_2fa_verified_at,
        null,
        'kept on the member until they sign',
      )
      const done = await signer(t, ann, 'sign', { values: FIRST_VALUES }, 'link', session)
      assert.equal(done.statusCode, 200, done.body)
      assert.equal((await submitterRow(t, group)).email_2fa_verified_at, verifiedAt)
    })

    it('what one member saves is theirs: the other member’s form does not show it; it goes when the role is signed', async () => {
      const created = await create()
      const [ann, bob] = [memberOf(created, 0, 0), memberOf(created, 0, 1)]
      assert.equal((await signer(t, ann, 'progress', { values: { Name: 'Ann draft' } })).statusCode, 200)
      assert.equal((await signer(t, bob, 'progress', { values: { Date: '2026-11-30' } })).statusCode, 200)
      assert.deepEqual((await signer(t, ann, 'form')).json().progress.values, { Name: 'Ann draft' })
      assert.deepEqual((await signer(t, bob, 'form')).json().progress.values, { Date: '2026-11-30' })
      await signer(t, bob, 'sign', { values: FIRST_VALUES })
      const left = await t.deps.db
        .selectFrom('signing_progress')
        .selectAll()
        .where('submission_id', '=', created.id)
        .execute()
      assert.equal(left.length, 0)
    })
  })

  describe('links that name no one', () => {
    it('404 for the group’s own slug and for its submitter’s embed token without a member', async () => {
      const created = await create()
      const group = created.submitters[0]!
      const row = await submitterRow(t, group.id)
      refused(
        await t.app.inject({ method: 'GET', url: `/s/${row.signing_slug}/form` }),
        404,
        'resource_not_found',
      )
      const token = await t.request(key, {
        method: 'POST',
        url: `/v1/submitters/${group.id}/embed_token`,
        payload: {},
      })
      assert.equal(token.statusCode, 422, token.body)
      assert.match(token.json().error.message, /member_id/)
      const bob = memberOf(created, 0, 1)
      const minted = await t.request(key, {
        method: 'POST',
        url: `/v1/submitters/${group.id}/embed_token`,
        payload: { member_id: bob.id },
      })
      assert.equal(minted.statusCode, 200, minted.body)
      assert.equal(minted.json().member_id, bob.id)
      const form = await signer(t, { ...bob, embed_src: minted.json().embed_src }, 'form', undefined, 'embed')
      assert.equal(form.json().submitter.email, BOB)
    })
  })
})
