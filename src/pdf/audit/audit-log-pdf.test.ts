import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { PDFDocument } from 'pdf-lib'
import { Value } from 'typebox/value'
import { auditRecord, completed, fakeId } from '../../../test/fixtures/audit-records.ts'
import { pageTexts, pdfText, qpdfCheck } from '../../../test/fixtures/poppler.ts'
import { auditLogPdf } from './audit-log-pdf.ts'
import { AuditEvent, AuditRecord, AuditSubmitter, SES_LEGAL_LEVEL } from './audit-record.ts'
import { eventSentence } from './audit-sentences.ts'

describe('AuditRecord', () => {
  it('accepts a complete record and refuses a malformed hash or a missing timestamp', () => {
    const record = auditRecord()
    assert.ok(Value.Check(AuditRecord, record), JSON.stringify([...Value.Errors(AuditRecord, record)][0]))
    assert.equal(Value.Check(AuditRecord, { ...record, final_pdf: { sha256: 'ABC', page_count: 1 } }), false)
    const { created_at: _, ...withoutCreation } = record
    assert.equal(Value.Check(AuditRecord, withoutCreation), false)
  })

  it('describes every property, as the response schema of audit_log.json', () => {
    for (const [name, schema] of Object.entries(AuditRecord.properties)) {
      assert.ok((schema as { description?: string }).description, `${name} has a description`)
    }
  })
})

describe('auditLogPdf', () => {
  it('holds the submission, the legal level, every hash, every signer and every event', async () => {
    const record = auditRecord()
    const out = await auditLogPdf(record)
    const text = (await pageTexts(out)).join(' ')
    const expected = [
      record.submission_id,
      SES_LEGAL_LEVEL,
      record.final_pdf!.sha256,
      ...record.documents.flatMap((d) => [d.name, d.sha256]),
      ...record.submitters.flatMap((s) => [
        s.email,
        s.name ?? '',
        s.id,
        s.consent_text!,
        s.opened_user_agent!,
      ]),
      ...record.submitters.flatMap((s) => s.values.flatMap((v) => [v.name])),
      ...record.events.flatMap((e) => [e.type, e.created_at, e.id]),
    ]
    for (const part of expected) assert.ok(text.includes(part), `missing: ${part}`)
    await qpdfCheck(out)
  })

  it('breaks 200 events across pages, each page numbered N of M with the submission', async () => {
    const record = auditRecord({ eventCount: 200 })
    const out = await auditLogPdf(record)
    const pages = await pageTexts(out)
    assert.ok(pages.length >= 6, `${pages.length} pages`)
    pages.forEach((page, i) => {
      assert.ok(
        page.includes(`Audit trail · ${record.submission_id} · page ${i + 1} of ${pages.length}`),
        `page ${i + 1}`,
      )
    })
    const text = pages.join(' ')
    for (const event of record.events) {
      const sentence = eventSentence(event, record.submitters)
      assert.ok(text.includes(`${event.created_at} ${sentence}`), `event ${event.id} in words on its row`)
      assert.ok(text.includes(`${event.type} · ${event.id}`), `event ${event.id}: code and id`)
    }
    // The table header is repeated on each page the events reach.
    const eventPages = pages.filter((page) => page.includes('evt_'))
    assert.ok(eventPages.every((page) => page.includes('Time (UTC) What happened')))
  })

  it('shows a refusal, a pre-signed signer and an unfinished submission', async () => {
    const base = auditRecord({ signers: 2 })
    const [first, second] = base.submitters as [AuditRecord['submitters'][0], AuditRecord['submitters'][0]]
    const record: AuditRecord = {
      ...base,
      status: 'declined',
      completed_at: null,
      final_pdf: null,
      submitters: [
        { ...first, status: 'pre_signed', signed_ip: null, signed_user_agent: null, opened_at: null },
        {
          ...second,
          status: 'declined',
          signed_at: null,
          declined_at: '2026-11-23T08:00:00.456Z',
          declined_ip: '198.51.100.7',
          declined_user_agent: 'curl/8.5.0',
          decline_reason: 'Wrong delivery address — please resend',
        },
      ],
    }
    const text = (await pageTexts(await auditLogPdf(record))).join(' ')
    for (const part of [
      'pre-signed by the sender',
      '2026-11-23T08:00:00.456Z',
      'from 198.51.100.7',
      'curl/8.5.0',
      'Wrong delivery address — please resend',
      'not produced: the submission is not completed',
    ]) {
      assert.ok(text.includes(part), `missing: ${part}`)
    }
  })

  it("shows each signer's e-mail code verification and what the sender changed", async () => {
    const base = auditRecord({ signers: 2, eventCount: 4 })
    const [first, second] = base.submitters as [AuditRecord['submitters'][0], AuditRecord['submitters'][0]]
    const details = 'Changed by the sender: email old@example.eu → new@example.eu, name'
    const record: AuditRecord = {
      ...base,
      submitters: [first, { ...second, email_2fa_verified_at: null }],
      events: base.events.map((e, i) =>
        i === 1 ? { ...e, type: 'submitter.updated', submitter_id: second.id, details } : e,
      ),
    }
    assert.ok(Value.Check(AuditRecord, record))
    const text = (await pageTexts(await auditLogPdf(record))).join(' ')
    assert.ok(first.email_2fa_verified_at)
    for (const part of [`e-mail code verified at ${first.email_2fa_verified_at}`, 'none entered', details]) {
      assert.ok(text.includes(part), `missing: ${part}`)
    }
  })

  it('cuts a user agent taller than a page instead of overflowing it', async () => {
    const base = auditRecord({ signers: 1, eventCount: 3 })
    const huge = `Mozilla/5.0 ${'X'.repeat(40_000)}`
    const record = { ...base, events: base.events.map((e) => ({ ...e, user_agent: huge, ip: '192.0.2.1' })) }
    const out = await auditLogPdf(record)
    const doc = await PDFDocument.load(out)
    assert.ok(doc.getPageCount() <= 6, `${doc.getPageCount()} pages`)
    assert.ok((await pdfText(out)).includes('…'))
    await qpdfCheck(out)
  })

  it('draws a name in a script DejaVu lacks in a Noto face (issue #21 item 2)', async () => {
    const base = auditRecord({ signers: 1, eventCount: 2 })
    const record = {
      ...base,
      submitters: [{ ...base.submitters[0]!, name: '山田 太郎', id: fakeId('sbm', 'cjk') }],
    }
    assert.match((await pageTexts(await auditLogPdf(record))).join(' '), /Name 山田 太郎/)
  })

  it('shows addresses as written, never in their xn-- form (docs/api.md#e-mail-addresses)', async () => {
    const base = auditRecord({ signers: 2, eventCount: 2 })
    const emails = ['jörg@müller-bau.de', '用户@例子.广告']
    const record = { ...base, submitters: base.submitters.map((s, i) => ({ ...s, email: emails[i]! })) }
    const text = (await pageTexts(await auditLogPdf(record))).join(' ')
    for (const email of emails) assert.ok(text.includes(email), `missing: ${email}`)
    assert.doesNotMatch(text, /xn--/)
  })
})

/** A completed record as the finalizer makes it: sentences on every event, closing sentences. */
describe('AuditRecord additions (issue #21 item 6)', () => {
  it('validates the sentences, the consent language and the closing lines, each described', () => {
    const record = completed(auditRecord({ signers: 2, eventCount: 4 }))
    const withLanguage = {
      ...record,
      submitters: record.submitters.map((s) => ({ ...s, consent_language: 'de' })),
    }
    assert.ok(
      Value.Check(AuditRecord, withLanguage),
      JSON.stringify([...Value.Errors(AuditRecord, withLanguage)][0]),
    )
    assert.ok(record.events.every((e) => typeof e.description === 'string'))
    assert.equal(Value.Check(AuditRecord, { ...record, completion: 42 }), false)
    const described = (schema: unknown) => Boolean((schema as { description?: string }).description)
    assert.ok(described(AuditRecord.properties.completion))
    assert.ok(described(AuditRecord.properties.verification))
    assert.ok(described(AuditEvent.properties.description))
    assert.ok(described(AuditSubmitter.properties.consent_language))
  })

  it('still accepts a record stored before them (backward compatible)', () => {
    const record = auditRecord()
    assert.equal('completion' in record || record.events.some((e) => 'description' in e), false)
    assert.ok(Value.Check(AuditRecord, record))
  })
})
