// The evidence a signer group leaves (docs/api.md#signer-groups): both audit trails name the
// group's members at sending and say which member signed, the final PDF names the member under the
// signature (read back with poppler's pdftotext), and the webhook of the signature, sent to a real
// receiver on loopback, carries the winning member.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { Value } from 'typebox/value'
import { post } from '../../test/documents.ts'
import { pdfText } from '../../test/fixtures/poppler.ts'
import { WebhookReceiver } from '../../test/fixtures/webhook-receiver.ts'
import { ANN, BOB, type CreatedGroup, groupBody, memberOf } from '../../test/groups.ts'
import { FIRST_VALUES, SIGNATURE, signer } from '../../test/signing.ts'
import { type HookApp, startHookApp } from '../../test/webhooks.ts'
import { AuditRecord } from '../pdf/audit/audit-record.ts'
import { closePdfFinalizer } from '../pdf/finalizer/finalize-pdf.ts'

const CAROL = 'carol@example.eu'
const flat = (text: string) => text.replace(/\s+/g, ' ')

describe('a signer group’s evidence: audit trails, final PDF, webhook', () => {
  let h: HookApp
  let receiver: WebhookReceiver
  before(async () => {
    h = await startHookApp()
    receiver = await WebhookReceiver.start()
  })
  after(async () => {
    closePdfFinalizer()
    await receiver.close()
    await h.close()
  })
  const get = (url: string) => h.t.request(h.key, { method: 'GET', url })

  it('Bob opens, Carol is added, Ann signs for the couple: the trails, the stamp and the webhook name her', async () => {
    await h.endpoint(receiver.url(), ['submission.partially_signed'])
    const body = await groupBody(['first', 'second'], 0, { signing_order: 'random', send_email: false })
    const res = await post(h.t, h.key, '/v1/submissions/from_pdf', body)
    assert.equal(res.statusCode, 201, res.body)
    const created = res.json() as CreatedGroup
    const group = created.submitters[0]!
    const [ann, bob] = [memberOf(created, 0, 0), memberOf(created, 0, 1)]
    assert.equal((await signer(h.t, bob, 'open')).statusCode, 200)
    const patched = await h.t.request(h.key, {
      method: 'PATCH',
      url: `/v1/submitters/${group.id}`,
      payload: { members: [{ email: ANN }, { email: BOB }, { email: CAROL, name: 'Carol' }] },
    })
    assert.equal(patched.statusCode, 200, patched.body)
    const signed = await signer(h.t, ann, 'sign', { values: FIRST_VALUES })
    assert.equal(signed.statusCode, 200, signed.body)

    // The webhook of the signature, as the receiver got it: the group with Ann's address, its members.
    await h.work()
    await receiver.waitFor(1)
    const hook = JSON.parse(receiver.received[0]!.body)
    assert.equal(hook.type, 'submission.partially_signed')
    assert.deepEqual(hook.data.member, { id: ann.id, email: ANN, name: 'Ann Martin' })
    const inHook = hook.data.object.submitters[0]
    assert.deepEqual([inHook.id, inHook.email, inHook.status], [group.id, ANN, 'signed'])
    assert.deepEqual(
      inHook.members.map((m: { email: string; status: string }) => [m.email, m.status]),
      [
        [ANN, 'signed'],
        [BOB, 'superseded'],
        [CAROL, 'superseded'],
      ],
    )
    assert.equal(inHook.members[0].signing_url, undefined, 'no member link in a webhook')

    const second = await signer(h.t, created.submitters[1]!, 'sign', {
      values: { 'second signature': SIGNATURE },
    })
    assert.equal(second.statusCode, 200, second.body)
    await h.work()
    assert.equal((await get(`/v1/submissions/${created.id}`)).json().status, 'completed')

    // The JSON audit trail.
    const json = (await get(`/v1/submissions/${created.id}/audit_log.json`)).json() as AuditRecord
    assert.ok(Value.Check(AuditRecord, json), JSON.stringify([...Value.Errors(AuditRecord, json)][0]))
    const audited = json.submitters[0]!
    assert.deepEqual([audited.email, audited.name], [ANN, 'Ann Martin'])
    assert.deepEqual(
      audited.members!.map((m) => [m.email, m.status]),
      [
        [ANN, 'signed'],
        [BOB, 'superseded'],
        [CAROL, 'superseded'],
      ],
    )
    const event = (type: string) => json.events.find((e) => e.type === type)!
    assert.equal(
      event('submission.created').details,
      'Asked to sign: the signer group for role “first” (any one of Ann Martin (ann@example.eu), The Martins (bob@example.eu))',
    )
    assert.match(
      event('submitter.opened').description!,
      /^Opened by The Martins \(bob@example\.eu\) of the signer group for role “first” from 203\.0\.113\.7/,
    )
    assert.equal(
      event('submitter.updated').details,
      `Changed by the sender: members of the signer group (added ${CAROL})`,
    )
    assert.match(
      event('submitter.signed').description!,
      /^Signed by Ann Martin \(ann@example\.eu\) of the signer group for role “first” from/,
    )

    // The audit PDF says the same.
    const audit = flat(await pdfText((await get(`/v1/submissions/${created.id}/audit_log`)).rawPayload))
    assert.match(audit, /Signer group any one of 3 people, each asked with a link of their own:/)
    assert.match(audit, /Ann Martin \(ann@example\.eu\) — signed for the role/)
    assert.match(audit, /The Martins \(bob@example\.eu\) — did not sign: another member signed/)
    assert.match(audit, /Asked to sign: the signer group for role “first” \(any one of Ann Martin/)

    // The final PDF names Ann under the signature.
    const documents = (await get(`/v1/submissions/${created.id}/documents`)).json()
    const final = await h.t.app.inject({ method: 'GET', url: new URL(documents.signed_pdf_url).pathname })
    const finalText = flat(await pdfText(final.rawPayload))
    assert.match(finalText, /Signed by Ann Martin \(ann@example\.eu\)/)
    assert.ok(!finalText.includes(BOB), 'only the member who signed')
  })
})
