// PATCH /v1/submitters/{id} on a signer group (docs/api.md#signer-groups): `members` replaced whole —
// a person kept keeps their link, a new one gets a link and (on the group's turn) the signing
// request, a person left out loses theirs — journaled; the same rules as creation, and refused once
// a member signed.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { refusedWith } from '../../test/addresses.ts'
import { ANN, BOB, type CreatedGroup, groupBody, memberOf } from '../../test/groups.ts'
import { startTestApp, type TestApp } from '../../test/harness.ts'
import { createSubmission, eventsOf, FIRST_VALUES, jobsOf, refused, signer } from '../../test/signing.ts'

const CAROL = 'carol@example.eu'

describe('PATCH /v1/submitters/{id} with members', () => {
  let t: TestApp
  let key: string
  before(async () => {
    t = await startTestApp()
    key = (await t.account()).testKey
  })
  after(() => t.close())

  const patch = (id: string, body: unknown) =>
    t.request(key, {
      method: 'PATCH',
      url: `/v1/submitters/${id}`,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    })
  const create = async (roles = ['first'], groupAt = 0, order = 'random'): Promise<CreatedGroup> =>
    (await createSubmission(
      t,
      key,
      await groupBody(roles, groupAt, { signing_order: order }),
    )) as CreatedGroup
  const requestsTo = async (submissionId: string) =>
    (await jobsOf(t, 'mail.send'))
      .filter((j) => j.payload.submission_id === submissionId && j.payload.kind === 'signing_request')
      .map((j) => j.payload.to)

  describe('happy', () => {
    it('200: Ann kept with her link, Bob removed (his link ends), Carol added with a link and the request', async () => {
      const created = await create()
      const group = created.submitters[0]!
      const [ann, bob] = [memberOf(created, 0, 0), memberOf(created, 0, 1)]
      const res = await patch(group.id, {
        members: [{ email: CAROL, name: 'Carol' }, { email: 'ANN@example.eu' }],
      })
      assert.equal(res.statusCode, 200, res.body)
      const members = res.json().members
      assert.deepEqual(
        members.map((m: { email: string; name: string; status: string }) => [m.email, m.name, m.status]),
        [
          [CAROL, 'Carol', 'pending'],
          [ANN, 'Ann Martin', 'pending'],
        ],
      )
      assert.equal(members[1].signing_url, ann.signing_url, 'a person kept keeps their link')
      assert.equal(members[1].id, ann.id)
      refused(await signer(t, bob, 'form'), 404, 'resource_not_found')
      refused(await signer(t, bob, 'form', undefined, 'embed'), 404, 'resource_not_found')
      const carol = { ...members[0], id: members[0].id }
      const form = (await signer(t, carol, 'form')).json()
      assert.deepEqual([form.state, form.submitter.email], ['ready', CAROL])
      assert.deepEqual(await requestsTo(created.id), [ANN, BOB, CAROL], 'only the new member is mailed again')
      const updated = (await eventsOf(t, created.id)).filter((e) => e.type === 'submitter.updated')
      assert.equal(updated.length, 1)
      const data = JSON.parse(updated[0]!.data)
      assert.deepEqual(data.changed, ['members'])
      assert.deepEqual(data.members, { added: [CAROL], removed: [BOB] })
      const signed = await signer(t, carol, 'sign', { values: FIRST_VALUES })
      assert.equal(signed.statusCode, 200, signed.body)
    })

    it('the same people in the same order change nothing; a group not yet at its turn mails no one', async () => {
      const created = await create(['first', 'second'], 1, 'preserved')
      const group = created.submitters[1]!
      const same = await patch(group.id, { members: [{ email: ANN }, { email: BOB }] })
      assert.equal(same.statusCode, 200, same.body)
      assert.equal((await eventsOf(t, created.id)).filter((e) => e.type === 'submitter.updated').length, 0)
      const res = await patch(group.id, {
        members: [{ email: ANN }, { email: CAROL }],
        phone: '+33 6 00 00 00 01',
      })
      assert.equal(res.statusCode, 200, res.body)
      assert.equal(res.json().phone, '+33 6 00 00 00 01')
      assert.deepEqual(
        await requestsTo(created.id),
        ['first@example.eu'],
        'the group is asked when its turn comes',
      )
      await signer(t, created.submitters[0]!, 'sign', { values: FIRST_VALUES })
      assert.deepEqual(await requestsTo(created.id), ['first@example.eu', ANN, CAROL])
    })
  })

  describe('errors', () => {
    it('422 naming email or name on a group, and members on a signer who is no group', async () => {
      const created = await create(['first', 'second'])
      const [group, single] = created.submitters
      refusedWith(
        await patch(group!.id, { email: CAROL }),
        'invalid_request',
        'email',
        /signer group.*replace `members`/,
      )
      refusedWith(await patch(group!.id, { name: 'X' }), 'invalid_request', 'name', /signer group/)
      refusedWith(
        await patch(single!.id, { members: [{ email: ANN }, { email: CAROL }] }),
        'invalid_request',
        'members',
        /one signer, not a signer group/,
      )
    })

    it('422 for the same person twice, or fewer than 2', async () => {
      const created = await create()
      const group = created.submitters[0]!
      refusedWith(
        await patch(group.id, { members: [{ email: CAROL }, { email: 'Carol@Example.eu' }] }),
        'invalid_request',
        'members[1].email',
        /address of members\[0\] again/,
      )
      const one = await patch(group.id, { members: [{ email: CAROL }] })
      assert.equal(one.statusCode, 422, one.body)
    })

    it('409 submitter_already_finalized once a member signed', async () => {
      const created = await create()
      await signer(t, memberOf(created, 0, 0), 'sign', { values: FIRST_VALUES })
      refused(
        await patch(created.submitters[0]!.id, { members: [{ email: CAROL }, { email: BOB }] }),
        409,
        'submitter_already_finalized',
      )
    })
  })
})
