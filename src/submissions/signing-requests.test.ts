// Who is mailed and when (signing_order, send_email and the status `sent`: docs/api.md#mail), and
// what the mail says (message.subject/body variables, who asks), read from a real SMTP server after
// the worker ran. `bcc_email` receives a notice of its own for each signer asked, never the
// signer's mail: no signing URL, slug, embed URL or token of anyone, in any part.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { post } from '../../test/documents.ts'
import type { ReceivedMail } from '../../test/fixtures/smtp.ts'
import { type MailTestApp, startMailApp } from '../../test/mail.ts'
import {
  type Created,
  type CreatedSubmitter,
  createSubmission,
  eventsOf,
  everyTypeBody,
  FIRST_VALUES,
  SIGNATURE,
  signer,
  submissionRow,
} from '../../test/signing.ts'

const ARCHIVE = 'archive@acme.example'
const lastSegment = (url: string) => new URL(url).pathname.split('/').pop()!

/** Every credential of a submission, as a mail could carry it. */
function credentialsOf(created: Created): string[] {
  return created.submitters.flatMap((s) => [
    s.signing_url,
    lastSegment(s.signing_url),
    s.embed_src,
    lastSegment(s.embed_src),
    lastSegment(s.embed_src).split('.')[2]!,
  ])
}

/** The whole mail as a reader could see it: subject, headers, text and HTML. */
function everythingIn(mail: ReceivedMail): string {
  const headers = [...mail.parsed.headers.entries()].map(
    ([name, value]) => `${name}: ${JSON.stringify(value)}`,
  )
  return [mail.subject, ...headers, mail.text, mail.html].join('\n')
}

/** Creates two-signer submissions under `key` with bcc_email, reply_to and a message naming the link. */
function creator(m: MailTestApp, key: string): () => Promise<Created> {
  return async () => {
    const res = await post(
      m.t,
      key,
      '/v1/submissions/from_pdf',
      await everyTypeBody(['first', 'second'], {
        bcc_email: ARCHIVE,
        reply_to: 'sales@acme.example',
        message: {
          subject: 'Sign {{document.name}}: {{submitter.signing_url}}',
          body: 'Dear {{submitter.name}},\n\nyour link: {{submitter.signing_url}}',
        },
      }),
    )
    assert.equal(res.statusCode, 201, res.body)
    return res.json() as Created
  }
}

describe('signing requests by e-mail', () => {
  let m: MailTestApp
  before(async () => {
    m = await startMailApp()
  })
  after(() => m.close())

  /** The mails of a submission so far (each carries one of its signing URLs), as `recipient` lists. */
  const mailsOf = (created: Created): ReceivedMail[] =>
    m.smtp.received.filter((mail) => created.submitters.some((s) => mail.text.includes(s.signing_url)))
  const recipients = (created: Created) => mailsOf(created).map((mail) => mail.envelope.to.join(','))
  const sign = async (created: Created, index: number) => {
    const values =
      index === 0 ? FIRST_VALUES : { [`${['first', 'second', 'third'][index]} signature`]: SIGNATURE }
    const res = await signer(m.t, created.submitters[index]!, 'sign', { values })
    assert.equal(res.statusCode, 200, res.body)
  }
  const sentEvents = async (created: Created) =>
    (await eventsOf(m.t, created.id)).filter((e) => e.type === 'submission.sent').length

  describe('signing_order', () => {
    it('preserved: the first signer is mailed at creation (status sent), the second only once the first signed', async () => {
      const created = await createSubmission(m.t, m.key, await everyTypeBody(['first', 'second']))
      assert.equal((await submissionRow(m.t, created.id)).status, 'sent')
      assert.equal(await sentEvents(created), 1)
      await m.work()
      assert.deepEqual(recipients(created), ['first@example.eu'])
      const [mail] = mailsOf(created)
      assert.ok(mail?.text.includes(created.submitters[0]!.signing_url))

      await sign(created, 0)
      await m.work()
      assert.deepEqual(recipients(created), ['first@example.eu', 'second@example.eu'])
      assert.ok(mailsOf(created)[1]!.text.includes(created.submitters[1]!.signing_url))
      assert.equal(await sentEvents(created), 1)
    })

    it('random: every signer is mailed at once, and a signature mails nobody again', async () => {
      const created = await createSubmission(
        m.t,
        m.key,
        await everyTypeBody(['first', 'second', 'third'], { signing_order: 'random' }),
      )
      assert.equal((await submissionRow(m.t, created.id)).status, 'sent')
      await m.work()
      assert.deepEqual(recipients(created).sort(), [
        'first@example.eu',
        'second@example.eu',
        'third@example.eu',
      ])
      await sign(created, 1)
      await m.work()
      assert.equal(mailsOf(created).length, 3)
    })
  })

  describe('send_email', () => {
    it('false on the submission: nobody is mailed, at creation or after a signature; the status stays created', async () => {
      const created = await createSubmission(
        m.t,
        m.key,
        await everyTypeBody(['first', 'second'], { send_email: false }),
      )
      assert.equal((await submissionRow(m.t, created.id)).status, 'created')
      assert.equal(await sentEvents(created), 0)
      await sign(created, 0)
      await m.work()
      assert.deepEqual(recipients(created), [])
    })

    it('false on the first submitter in preserved order: no mail until they signed, then the second is mailed', async () => {
      const body = await everyTypeBody(['first', 'second'])
      body.submitters[0] = { ...body.submitters[0]!, send_email: false } as (typeof body.submitters)[0]
      const created = await createSubmission(m.t, m.key, body)
      assert.equal((await submissionRow(m.t, created.id)).status, 'created', 'no request went out')
      await m.work()
      assert.deepEqual(recipients(created), [])
      await sign(created, 0)
      await m.work()
      assert.deepEqual(recipients(created), ['second@example.eu'])
    })

    it('false on one submitter in random order: the others are mailed, not that one', async () => {
      const body = await everyTypeBody(['first', 'second', 'third'], { signing_order: 'random' })
      body.submitters[1] = { ...body.submitters[1]!, send_email: false } as (typeof body.submitters)[1]
      const created = await createSubmission(m.t, m.key, body)
      await m.work()
      assert.deepEqual(recipients(created).sort(), ['first@example.eu', 'third@example.eu'])
    })
  })

  describe('message.subject and message.body', () => {
    it('fills the variables in the subject, the text and the HTML (escaped), and keeps the button and link', async () => {
      const created = await createSubmission(
        m.t,
        m.key,
        await everyTypeBody(['first'], {
          expires_at: '2026-12-01T09:00:00Z',
          message: {
            subject: '{{submitter.name}}: {{document.name}} to sign',
            body: 'Dear {{submitter.name}} <3,\n\nfor {{submitter.email}} ({{submission.id}}), until {{submission.expires_at}}.\nYour link: {{ submitter.signing_url }}',
          },
        }),
      )
      await m.work()
      const [mail] = mailsOf(created)
      assert.ok(mail)
      const url = created.submitters[0]!.signing_url
      assert.equal(mail.subject, 'FIRST: Contract to sign')
      assert.ok(
        mail.text.startsWith(
          `Requested by Test account\n\nDear FIRST <3,\n\nfor first@example.eu (${created.id}), until 1 December 2026 at 09:00 UTC.\nYour link: ${url}\n\nReview and sign:\n${url}\n`,
        ),
        mail.text,
      )
      assert.match(mail.html, /Dear FIRST &lt;3,/)
      assert.ok(mail.html.includes(`Your link: <a href="${url}"`), mail.html)
      assert.equal(mail.html.split(`href="${url}"`).length - 1, 3, 'the variable, the button, the plain link')
      assert.ok(mail.html.includes('This link expires on 1 December 2026 at 09:00 UTC.'))
    })
  })

  describe('who asks, and the copy to bcc_email (issue #20)', () => {
    let create: () => Promise<Created>
    before(async () => {
      create = creator(m, (await m.t.account('Acme Ltd')).testKey)
    })

    it("the signer's mail names the account and reply_to and carries their link; the bcc gets a notice without any", async () => {
      const start = m.smtp.received.length
      const to = (address: string) =>
        m.smtp.received.slice(start).filter((r) => r.envelope.to.includes(address))
      const created = await create()
      const [first, second] = created.submitters as [CreatedSubmitter, CreatedSubmitter]
      await m.work()
      const [request, ...more] = to(first.email)
      assert.ok(request && more.length === 0)
      assert.deepEqual(request.envelope.to, [first.email], 'the bcc is no recipient of the signer’s mail')
      assert.match(
        request.text,
        /^Requested by Acme Ltd \(sales@acme\.example\)\n\nDear FIRST,\n\nyour link: http/,
      )
      assert.ok(
        request.text.includes(first.signing_url) && request.html.includes(`href="${first.signing_url}"`),
      )
      assert.ok(request.html.includes('Requested by Acme Ltd (sales@acme.example)'))

      const [copy, ...moreCopies] = to(ARCHIVE)
      assert.ok(copy && moreCopies.length === 0)
      assert.deepEqual(copy.envelope.to, [ARCHIVE])
      assert.equal(copy.subject, 'Sent for signature: “Contract” to FIRST')
      assert.match(copy.text, /^Acme Ltd sent “Contract” to FIRST \(first@example\.eu\) for signature\./)
      assert.ok(copy.html.includes('Acme Ltd sent “Contract” to FIRST (first@example.eu) for signature.'))
      assert.equal(copy.parsed.replyTo, undefined)
      const seen = everythingIn(copy)
      for (const secret of credentialsOf(created)) assert.ok(!seen.includes(secret), `${secret} in the copy`)
      assert.doesNotMatch(`${copy.text}\n${copy.html}`, /\/s\/|\/embed\/|href=|https?:/, 'no link at all')
      assert.ok(!seen.includes('your link'), "none of the sender's message")

      // preserved order: the second signer is asked once the first signed, and the bcc told again.
      assert.equal((await signer(m.t, first, 'sign', { values: FIRST_VALUES })).statusCode, 200)
      await m.work()
      assert.ok(to(second.email)[0]?.text.includes(second.signing_url))
      const copies = to(ARCHIVE)
      assert.equal(copies.length, 2)
      assert.match(copies[1]!.text, /to SECOND \(second@example\.eu\) for signature\./)
      for (const secret of credentialsOf(created)) assert.ok(!everythingIn(copies[1]!).includes(secret))
    })
  })
})

describe('signing requests in French (MAIL_LANGUAGE=fr)', () => {
  let m: MailTestApp
  let create: () => Promise<Created>
  before(async () => {
    m = await startMailApp({ MAIL_LANGUAGE: 'fr' })
    create = creator(m, (await m.t.account('Acme Ltd')).testKey)
  })
  after(() => m.close())

  it('the request and the copy speak French', async () => {
    const created = await create()
    await m.work()
    const [request] = m.smtp.to(created.submitters[0]!.email)
    assert.ok(request)
    assert.ok(request.text.startsWith('Demandeur\u00a0: Acme Ltd (sales@acme.example)\n\nDear FIRST,'))
    assert.ok(request.text.includes(`Relire et signer\u00a0:\n${created.submitters[0]!.signing_url}`))
    assert.match(request.html, /<html lang="fr">/)
    const [copy] = m.smtp.to(ARCHIVE)
    assert.equal(copy?.subject, 'Envoyé pour signature : « Contract » à FIRST')
    assert.ok(copy.text.includes('Cette copie est destinée à vos archives.'))
  })
})
