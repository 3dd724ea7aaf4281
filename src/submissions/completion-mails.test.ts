// The completion notice: queued with the move to `completed`, once per submitter whose
// e-mail is on, each linking to that submitter's own signing page; read from a real SMTP server.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { base64 } from '../../test/documents.ts'
import { a4 } from '../../test/fixtures/pdfs.ts'
import type { ReceivedMail } from '../../test/fixtures/smtp.ts'
import { type MailTestApp, startMailApp } from '../../test/mail.ts'
import {
  type Created,
  createSubmission,
  jobsOf,
  SIGNATURE,
  signer,
  submissionRow,
} from '../../test/signing.ts'
import { mailJob } from '../mail/mail-job.ts'
import { closePdfFinalizer } from '../pdf/finalizer/finalize-pdf.ts'
import { finalizeSubmission } from './finalize-submission.ts'

const area = (y: number) => ({ page: 1, x: 0.1, y, w: 0.3, h: 0.05 })

/** A CEO pre-signed at creation, then Ann and Bob to sign; extra options and per-role overrides. */
async function body(extra: Record<string, unknown> = {}, bob: Record<string, unknown> = {}) {
  return {
    documents: [
      {
        name: 'Lease',
        pdf_base64: base64(await a4()),
        fields: ['ceo', 'ann', 'bob'].map((role, i) => ({
          name: `${role} signs`,
          role,
          areas: [area(0.1 + i * 0.1)],
        })),
      },
    ],
    submitters: [
      {
        role: 'ceo',
        email: 'ceo@example.eu',
        name: 'Cleo',
        completed: true,
        fields: [{ name: 'ceo signs', readonly: true, default_value: SIGNATURE }],
      },
      { role: 'ann', email: 'ann@example.eu', name: 'Ann' },
      { role: 'bob', email: 'bob@example.eu', name: 'Bob', ...bob },
    ],
    ...extra,
  }
}

describe('the completion notice', () => {
  let m: MailTestApp
  before(async () => {
    m = await startMailApp()
  })
  after(async () => {
    closePdfFinalizer()
    await m.close()
  })

  const notices = (created: Created): ReceivedMail[] =>
    m.smtp.received.filter(
      (mail) =>
        mail.subject === 'Signed by everyone: “Lease”' &&
        created.submitters.some((s) => mail.text.includes(s.signing_url)),
    )
  const signBoth = async (created: Created) => {
    for (const [i, role] of [
      [1, 'ann'],
      [2, 'bob'],
    ] as const) {
      const res = await signer(m.t, created.submitters[i]!, 'sign', {
        values: { [`${role} signs`]: SIGNATURE },
      })
      assert.equal(res.statusCode, 200, res.body)
    }
  }
  const completionJobs = async (created: Created) =>
    (await jobsOf(m.t, mailJob.kind)).filter(
      (j) => j.payload.submission_id === created.id && j.payload.kind === 'completed',
    )

  it('each submitter with e-mail on, the pre-signed one too, gets one notice linking to their own page; one who opted out none', async () => {
    const created = await createSubmission(m.t, m.key, await body({}, { send_email: false }))
    await signBoth(created)
    await m.work()
    assert.equal((await submissionRow(m.t, created.id)).status, 'completed')
    const received = notices(created)
    assert.deepEqual(received.map((mail) => mail.envelope.to.join(',')).sort(), [
      'ann@example.eu',
      'ceo@example.eu',
    ])
    for (const mail of received) {
      const own = created.submitters.find((s) => s.email === mail.envelope.to[0])!
      assert.ok(mail.text.includes(`Download the signed document:\n${own.signing_url}\n`), mail.text)
      assert.ok(mail.html.includes(`href="${own.signing_url}"`))
      assert.equal(
        created.submitters.filter((s) => mail.text.includes(s.signing_url)).length,
        1,
        "no other signer's link",
      )
    }
    assert.match(received.find((mail) => mail.envelope.to[0] === 'ann@example.eu')!.text, /^Hello Ann,\n/)
  })

  it('two finalization attempts at once: one completes the submission and the notices are queued once', async () => {
    const created = await createSubmission(m.t, m.key, await body({ reply_to: 'landlord@example.eu' }))
    await signBoth(created)
    await Promise.all([
      finalizeSubmission(m.t.deps, created.id, { attempt: 1 }),
      finalizeSubmission(m.t.deps, created.id, { attempt: 2 }),
    ])
    assert.equal((await submissionRow(m.t, created.id)).status, 'completed')
    assert.equal((await completionJobs(created)).length, 3)
    await m.work() // the queued finalization job finds it completed and does nothing
    assert.equal((await completionJobs(created)).length, 3)
    const received = notices(created)
    assert.deepEqual(received.map((mail) => mail.envelope.to[0]).sort(), [
      'ann@example.eu',
      'bob@example.eu',
      'ceo@example.eu',
    ])
    assert.equal(received[0]!.parsed.replyTo?.value[0]?.address, 'landlord@example.eu')
  })

  it('send_email false on the submission: no notice to anyone', async () => {
    const created = await createSubmission(m.t, m.key, await body({ send_email: false }))
    await signBoth(created)
    await m.work()
    assert.equal((await submissionRow(m.t, created.id)).status, 'completed')
    assert.deepEqual(await completionJobs(created), [])
    assert.deepEqual(notices(created), [])
  })
})
