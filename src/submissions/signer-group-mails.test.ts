// The mails of a signer group (docs/api.md#signer-groups), read from a real SMTP server: one signing
// request per member with their own link (when the group's turn comes, in preserved order), a
// reminder — automatic or by hand — to every member still pending, each with their own link, and
// the e-mail code at each member's own address; nothing more once a member signed.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { post } from '../../test/documents.ts'
import type { ReceivedMail } from '../../test/fixtures/smtp.ts'
import { ANN, BOB, type CreatedGroup, groupBody, memberOf } from '../../test/groups.ts'
import { type MailTestApp, startMailApp } from '../../test/mail.ts'
import { FIRST_VALUES, SIGNATURE, signer } from '../../test/signing.ts'

const HOUR = 3_600_000
const POLICY = { first_after_hours: 24, every_hours: 48, max_count: 2 }

describe('a signer group’s mails, through a real SMTP server', () => {
  let m: MailTestApp
  before(async () => {
    m = await startMailApp()
  })
  after(() => m.close())

  const create = async (roles: string[], groupAt: number, extra: Record<string, unknown> = {}) => {
    const res = await post(m.t, m.key, '/v1/submissions/from_pdf', await groupBody(roles, groupAt, extra))
    assert.equal(res.statusCode, 201, res.body)
    await m.work()
    return res.json() as CreatedGroup
  }
  /** Mails of this submission to `to` whose text holds `link`. */
  const mailsTo = (to: string, link: string, subject: RegExp = /./): ReceivedMail[] =>
    m.smtp.received.filter(
      (mail) => mail.envelope.to.includes(to) && mail.text.includes(link) && subject.test(mail.subject),
    )

  it('each member is mailed the signing request with their own link, named as the request names them', async () => {
    const created = await create(['first'], 0, { bcc_email: 'office@example.eu' })
    const [ann, bob] = [memberOf(created, 0, 0), memberOf(created, 0, 1)]
    const [toAnn] = mailsTo(ANN, ann.signing_url)
    const [toBob] = mailsTo(BOB, bob.signing_url)
    assert.ok(toAnn && toBob, 'one request each')
    assert.match(toAnn.text, /Ann Martin/)
    assert.match(toBob.text, /The Martins/)
    assert.ok(!toAnn.text.includes(bob.signing_url), 'never another member’s link')
    const copies = m.smtp.received.filter((mail) => mail.envelope.to.includes('office@example.eu'))
    assert.equal(copies.filter((c) => c.text.includes(created.id)).length, 2, 'a bcc notice per member asked')
  })

  it('in preserved order, the members are mailed once the signer before them has signed', async () => {
    const created = await create(['first', 'second'], 1, { signing_order: 'preserved' })
    const [ann, bob] = [memberOf(created, 1, 0), memberOf(created, 1, 1)]
    assert.equal(mailsTo(ANN, ann.signing_url).length, 0)
    const signed = await signer(m.t, created.submitters[0]!, 'sign', { values: FIRST_VALUES })
    assert.equal(signed.statusCode, 200, signed.body)
    await m.work()
    assert.equal(mailsTo(ANN, ann.signing_url).length, 1)
    assert.equal(mailsTo(BOB, bob.signing_url).length, 1)
  })

  it('a reminder, automatic or by hand, goes to every member still pending with their own link; none once one signed', async () => {
    const created = await create(['first', 'second'], 1, { signing_order: 'random', reminders: POLICY })
    const group = created.submitters[1]!
    const [ann, bob] = [memberOf(created, 1, 0), memberOf(created, 1, 1)]
    const start = m.t.clock.epochMs()
    m.t.clock.set(new Date(start + 24 * HOUR))
    await m.work()
    assert.equal(mailsTo(ANN, ann.signing_url, /^Reminder:/).length, 1)
    assert.equal(mailsTo(BOB, bob.signing_url, /^Reminder:/).length, 1)
    const read = (await m.t.request(m.key, { method: 'GET', url: `/v1/submitters/${group.id}` })).json()
    assert.equal(read.reminders_sent, 1, 'one reminder of the group, to each of its members')
    m.t.clock.set(new Date(start + 26 * HOUR))
    const manual = await m.t.request(m.key, { method: 'POST', url: `/v1/submitters/${group.id}/remind` })
    assert.equal(manual.statusCode, 200, manual.body)
    await m.work()
    assert.equal(mailsTo(ANN, ann.signing_url, /^Reminder:/).length, 2)
    assert.equal(mailsTo(BOB, bob.signing_url, /^Reminder:/).length, 2)
    const signed = await signer(m.t, bob, 'sign', { values: { 'second signature': SIGNATURE } })
    assert.equal(signed.statusCode, 200, signed.body)
    m.t.clock.set(new Date(start + 80 * HOUR))
    await m.work()
    assert.equal(mailsTo(ANN, ann.signing_url, /^Reminder:/).length, 2, 'no reminder once the group signed')
    const again = await m.t.request(m.key, { method: 'POST', url: `/v1/submitters/${group.id}/remind` })
    assert.equal(again.statusCode, 409, again.body)
  })

  it('a guarded member’s e-mail code goes to their own address', async () => {
    const body = await groupBody(['first'], 0, { send_email: false }, { require_email_2fa: true })
    const res = await post(m.t, m.key, '/v1/submissions/from_pdf', body)
    assert.equal(res.statusCode, 201, res.body)
    const bob = memberOf(res.json(), 0, 1)
    const before = m.smtp.received.length
    const sent = await signer(m.t, bob, 'email_2fa/send')
    assert.equal(sent.statusCode, 200, sent.body)
    await m.work()
    const mailed = m.smtp.received.slice(before)
    assert.deepEqual(
      mailed.map((mail) => mail.envelope.to),
      [[BOB]],
    )
    assert.match(mailed[0]!.text, /\b\d{6}\b/)
  })
})
