// Signer groups through the real app (docs/api.md#signer-groups): `members` instead of `email` on
// every creating route, what the answers show of a group and its people, the `email` filter finding
// a group by a member's address, and the refusals of a body naming a group wrongly.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { refusedWith, ZOE, ZOE_ASCII } from '../../test/addresses.ts'
import { createTemplateFor, post } from '../../test/documents.ts'
import { minimalDocx } from '../../test/fixtures/docx.ts'
import { ANN, BOB, type CreatedGroup, groupBody, memberRows } from '../../test/groups.ts'
import { startTestApp, type TestApp, whatHappened } from '../../test/harness.ts'
import { closeDocxConverter } from '../render/docx-to-html.ts'

describe('signer groups: creation and reads (docs/api.md#signer-groups)', () => {
  let t: TestApp
  let key: string
  let templateId: string
  before(async () => {
    t = await startTestApp()
    key = (await t.account()).testKey
    templateId = await createTemplateFor(t, key)
  })
  after(async () => {
    closeDocxConverter()
    await t.close()
  })

  const created = async (url: string, body: unknown): Promise<CreatedGroup> => {
    const res = await post(t, key, url, body)
    assert.equal(res.statusCode, 201, whatHappened(t, res))
    return res.json()
  }
  const get = async (url: string) => {
    const res = await t.request(key, { method: 'GET', url })
    assert.equal(res.statusCode, 200, res.body)
    return res.json()
  }
  const couple = [{ email: ANN, name: 'Ann Martin' }, { email: BOB }]
  const tagged = (role: string) => ({
    name: 'Lease',
    send_email: false,
    submitters: [{ role, name: 'The Martins', members: couple }],
  })

  describe('happy', () => {
    it('201 from_pdf: the group answers no address or link of its own, and each member their own links', async () => {
      const res = await created('/v1/submissions/from_pdf', await groupBody(['first', 'second']))
      const [group, second] = res.submitters
      assert.equal(group!.email, null)
      assert.equal(group!.signing_url, null)
      assert.equal(group!.embed_src, null)
      const members = group!.members!
      assert.deepEqual(
        members.map((m) => [m.email, m.name, m.status, m.signed_at]),
        [
          [ANN, 'Ann Martin', 'pending', null],
          [BOB, 'The Martins', 'pending', null],
        ],
      )
      for (const m of members) {
        assert.match(m.id, /^grm_[0-9A-Za-z]{24}$/)
        assert.match(m.signing_url, /^http:\/\/127\.0\.0\.1:8080\/s\/[0-9A-Za-z]{22}$/)
        assert.match(m.embed_src, /^http:\/\/127\.0\.0\.1:8080\/embed\/ey/)
      }
      assert.notEqual(members[0]!.signing_url, members[1]!.signing_url)
      assert.equal(second!.members, undefined)
      assert.equal(second!.email, 'second@example.eu')
      const rows = await memberRows(t, group!.id)
      assert.deepEqual(
        rows.map((r) => [r.id, r.email_key, r.submission_id]),
        members.map((m) => [m.id, m.email, res.id]),
      )
    })

    it('201 from a template, from_html and from_docx with members, each member with their own link', async () => {
      const fromTemplate = await created('/v1/submissions', {
        template_id: templateId,
        send_email: false,
        submitters: [
          { role: 'first', members: couple },
          { role: 'second', email: 'second@example.eu' },
        ],
      })
      const fromHtml = await created('/v1/submissions/from_html', {
        ...tagged('Tenant'),
        html: '<p>Lease. {{Sign;role=Tenant;type=signature}}</p>',
      })
      const paragraph = '<w:p><w:r><w:t>Lease. {{Sign;role=Tenant;type=signature}}</w:t></w:r></w:p>'
      const fromDocx = await created('/v1/submissions/from_docx', {
        ...tagged('Tenant'),
        file: minimalDocx(paragraph).toString('base64'),
      })
      for (const res of [fromTemplate, fromHtml, fromDocx]) {
        const members = res.submitters[0]!.members!
        assert.deepEqual(
          members.map((m) => m.email),
          [ANN, BOB],
        )
        assert.equal(new Set(members.map((m) => m.signing_url)).size, 2)
      }
    })

    it('GET /v1/submissions/{id}, GET /v1/submitters/{id} and the lists answer the members; email and name null until a member signs', async () => {
      const res = await created('/v1/submissions/from_pdf', await groupBody(['first', 'second']))
      const group = res.submitters[0]!
      const submission = await get(`/v1/submissions/${res.id}`)
      const read = await get(`/v1/submitters/${group.id}`)
      const listed = await get(`/v1/submitters?submission_id=${res.id}`)
      const inList = (await get('/v1/submissions?limit=100')).data.find(
        (x: { id: string }) => x.id === res.id,
      )
      for (const answer of [
        submission.submitters[0],
        read,
        listed.data.find((s: { id: string }) => s.id === group.id),
        inList.submitters[0],
      ]) {
        assert.equal(answer.email, null)
        assert.equal(answer.name, null)
        assert.equal(answer.signing_url, null)
        assert.deepEqual(
          answer.members.map((m: { id: string; email: string; status: string }) => [m.id, m.email, m.status]),
          group.members!.map((m) => [m.id, m.email, 'pending']),
        )
        assert.match(answer.members[0].embed_src, /\/embed\/ey/)
      }
      assert.equal(submission.submitters[1].members, undefined, 'members only on a group')
    })

    it('GET /v1/submitters?email= finds a group by any member’s address, in either spelling of its domain, page by page', async () => {
      const body = (member: string) =>
        groupBody(
          ['first'],
          0,
          { send_email: false },
          { members: [{ email: member }, { email: 'other@example.eu' }] },
        )
      const a = await created('/v1/submissions/from_pdf', await body(ZOE))
      t.clock.advance(1000)
      const single = await created('/v1/submissions/from_pdf', {
        ...(await groupBody(['first'])),
        submitters: [{ role: 'first', email: ZOE_ASCII }],
      })
      t.clock.advance(1000)
      const b = await created('/v1/submissions/from_pdf', await body(ZOE_ASCII))
      const expected = [b.submitters[0]!.id, single.submitters[0]!.id, a.submitters[0]!.id]
      const all = await get(`/v1/submitters?email=${encodeURIComponent(ZOE)}`)
      assert.deepEqual(
        all.data.map((s: { id: string }) => s.id),
        expected,
      )
      const seen: string[] = []
      let url = `/v1/submitters?limit=1&email=${encodeURIComponent(ZOE_ASCII)}`
      for (;;) {
        const pageOf = await get(url)
        seen.push(...pageOf.data.map((s: { id: string }) => s.id))
        if (!pageOf.next_cursor) break
        url = `/v1/submitters?limit=1&email=${encodeURIComponent(ZOE_ASCII)}&cursor=${encodeURIComponent(pageOf.next_cursor)}`
      }
      assert.deepEqual(seen, expected)
    })
  })

  describe('errors', () => {
    const withGroup = async (group: Record<string, unknown>) => {
      const body = await groupBody(['first'], 0, {}, group)
      return post(t, key, '/v1/submissions/from_pdf', body)
    }

    it('422 invalid_request naming submitters[0].members when both email and members are given', async () => {
      refusedWith(
        await withGroup({ email: 'c@example.eu' }),
        'invalid_request',
        'submitters[0].members',
        /either `email`.*or `members`/,
      )
    })

    it('422 invalid_request naming submitters[0].email when neither is given', async () => {
      const body = await groupBody(['first'])
      const { members: _, ...bare } = body.submitters[0] as Record<string, unknown>
      const res = await post(t, key, '/v1/submissions/from_pdf', { ...body, submitters: [bare] })
      refusedWith(res, 'invalid_request', 'submitters[0].email', /is required.*`members` for a signer group/)
    })

    it('422 naming the second member with the same address (case, xn-- spelling)', async () => {
      refusedWith(
        await withGroup({ members: [{ email: ANN }, { email: 'ANN@Example.EU' }] }),
        'invalid_request',
        'submitters[0].members[1].email',
        /address of submitters\[0\]\.members\[0\] again/,
      )
      refusedWith(
        await withGroup({ members: [{ email: 'x@example.eu' }, { email: ZOE }, { email: ZOE_ASCII }] }),
        'invalid_request',
        'submitters[0].members[2].email',
        /members\[1\] again/,
      )
    })

    it('422 for one member or eleven, and for a member who is no e-mail address', async () => {
      const one = await withGroup({ members: [{ email: ANN }] })
      assert.equal(one.statusCode, 422, one.body)
      assert.match(one.json().error.message, /submitters\[0\]\.members/)
      const eleven = Array.from({ length: 11 }, (_, i) => ({ email: `m${i}@example.eu` }))
      const many = await withGroup({ members: eleven })
      assert.equal(many.statusCode, 422, many.body)
      assert.match(many.json().error.message, /submitters\[0\]\.members/)
      const bad = await withGroup({ members: [{ email: ANN }, { email: 'not an address' }] })
      assert.equal(bad.statusCode, 422, bad.body)
      assert.match(bad.json().error.message, /submitters\[0\]\.members\[1\]\.email/)
    })

    it('422 naming submitters[0].completed for a pre-signed group', async () => {
      refusedWith(
        await withGroup({ completed: true }),
        'invalid_request',
        'submitters[0].completed',
        /cannot be pre-signed/,
      )
    })
  })
})
