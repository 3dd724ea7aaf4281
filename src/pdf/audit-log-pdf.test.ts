import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { PDFDocument } from 'pdf-lib'
import { Value } from 'typebox/value'
import { auditRecord, fakeId, withDrawings } from '../../test/fixtures/audit-records.ts'
import { inkCount } from '../../test/fixtures/ink.ts'
import { pdfText, qpdfCheck, rasterize } from '../../test/fixtures/poppler.ts'
import { runOn } from '../../test/run-tool.ts'
import { EVENT_TYPES } from '../events/event-types.ts'
import { auditLogPdf } from './audit-log-pdf.ts'
import {
  AuditEvent,
  AuditRecord,
  AuditSubmitter,
  type AuditTimestamp,
  SES_LEGAL_LEVEL,
  withFinalPdf,
} from './audit-record.ts'
import { eventSentence } from './audit-sentences.ts'

/** The text of every page, whitespace folded, so a wrapped phrase still matches. */
async function pagesOf(pdf: Uint8Array): Promise<string[]> {
  return (await pdfText(pdf))
    .split('\f')
    .slice(0, -1)
    .map((page) => page.replace(/\s+/g, ' '))
}

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
    const text = (await pagesOf(out)).join(' ')
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
    const pages = await pagesOf(out)
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
    const text = (await pagesOf(await auditLogPdf(record))).join(' ')
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
    const text = (await pagesOf(await auditLogPdf(record))).join(' ')
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
    assert.match((await pagesOf(await auditLogPdf(record))).join(' '), /Name 山田 太郎/)
  })
})

/** A completed record as the finalizer makes it: sentences on every event, closing sentences. */
function completed(record: AuditRecord, timestamp: AuditTimestamp | null = null): AuditRecord {
  const events = record.events.map((e) => ({
    ...e,
    description: eventSentence(e, record.submitters, 'link'),
  }))
  const documents = record.documents.map(() => ({
    encrypted: false,
    repaired: false,
    rewritten_sha256: null,
    certification: null,
    signatures: [],
  }))
  return withFinalPdf({ ...record, events, final_pdf: null }, record.final_pdf!.sha256, {
    documents,
    notes: [],
    timestamp,
  })
}

/** pdfimages -list: one row per image drawn (and per soft mask), with its pixel size and object number. */
async function imagesOf(pdf: Uint8Array): Promise<Array<{ type: string; size: string; object: string }>> {
  const { stdout } = await runOn(pdf, 'pdfimages', ['-list'])
  return stdout
    .split('\n')
    .slice(2)
    .filter(Boolean)
    .map((line) => line.trim().split(/\s+/))
    .map((cols) => ({ type: cols[2]!, size: `${cols[3]}x${cols[4]}`, object: cols[10]! }))
}

/** Every occurrence of `word` in `text` where line breaks may fall between its characters. */
function brokenOccurrences(text: string, word: string): string[] {
  const pattern = [...word].map((c) => c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\n?')
  return [...text.matchAll(new RegExp(pattern, 'g'))].map((m) => m[0])
}

/** The characters each line break inside `occurrence` follows. */
function breaksAfter(occurrence: string): string[] {
  return [...occurrence.matchAll(/(.)\n/g)].map((m) => m[1]!)
}

describe('auditLogPdf as a certificate of completion (issue #21 item 6)', () => {
  it('states every event in words: who (name and e-mail), from which IP, how; code and id kept', async () => {
    const record = completed(auditRecord({ signers: 2, eventCount: 8 }))
    const text = (await pagesOf(await auditLogPdf(record))).join(' ')
    const [first] = record.submitters
    const signed = record.events.find((e) => e.type === 'submitter.signed' && e.submitter_id === first!.id)!
    assert.equal(
      signed.description,
      `Signed by Łukasz Żółć (lukasz.zolc@example.pl) from ${signed.ip} through the signing link.`,
    )
    for (const e of record.events) {
      assert.ok(text.includes(`${e.created_at} ${e.description}`), `missing: ${e.description}`)
      assert.ok(text.includes(`${e.type} · ${e.id}`), `missing code of ${e.id}`)
    }
  })

  it('gives every event type of api-v1 §6 (and its additions) a sentence of its own', () => {
    const record = auditRecord({ signers: 1, eventCount: 1 })
    const [signer] = record.submitters
    const sentences = EVENT_TYPES.map((type) =>
      eventSentence(
        { ...record.events[0]!, type, submitter_id: signer!.id, ip: '192.0.2.4' },
        record.submitters,
        'embed',
      ),
    )
    for (const [i, sentence] of sentences.entries()) {
      assert.doesNotMatch(sentence, /^Event /, `${EVENT_TYPES[i]} falls back to the generic sentence`)
    }
    assert.equal(new Set(sentences).size, EVENT_TYPES.length, 'each type says something different')
    assert.equal(
      sentences[EVENT_TYPES.indexOf('submitter.opened')],
      "Opened by Łukasz Żółć (lukasz.zolc@example.pl) from 192.0.2.4 in the form embedded in the sender's application.",
    )
    const unknown = eventSentence({ ...record.events[0]!, type: 'submitter.future' }, record.submitters)
    assert.match(unknown, /^Event submitter\.future/)
  })

  it("draws each signer's signature and initials beside them, each distinct image once, its hash under it", async () => {
    const { record, images } = withDrawings(completed(auditRecord({ signers: 3, eventCount: 4 })))
    // The second signer drew the same signature as the first: one image, shown for both.
    const [ann, bob] = record.submitters as [AuditSubmitter, AuditSubmitter]
    const shared = {
      ...record,
      submitters: [ann, { ...bob, values: [ann.values[0]!, ...bob.values.slice(1)] }, record.submitters[2]!],
    }
    const pdf = await auditLogPdf(shared, { images })
    const listed = await imagesOf(pdf)
    const drawn = listed.filter((i) => i.type === 'image')
    assert.equal(drawn.length, 6, 'six pictures drawn')
    const objects = new Map(drawn.map((i) => [i.object, i.size]))
    assert.deepEqual([...objects.values()].sort(), ['200x120', '200x120', '200x120', '600x200', '600x200'])
    const text = (await pdfText(pdf)).replace(/([0-9a-f]{16})\n(?=[0-9a-f]{16})/g, '$1')
    for (const s of shared.submitters) {
      for (const v of s.values.filter((v) => v.type === 'signature' || v.type === 'initials')) {
        const { sha256 } = v.value as { sha256: string }
        assert.ok(text.includes(sha256), `hash of ${s.email}'s ${v.name}`)
      }
    }
    // The pictures are ink on the first signer's page, right of the details column.
    const raster = await rasterize(pdf, 1)
    const box = {
      left: Math.round(raster.width * 0.66),
      top: 0,
      right: raster.width - 40,
      bottom: raster.height,
    }
    assert.ok(inkCount(raster, box) > 200, 'signature ink at the right of page 1')
  })

  it('names an image it was not given, or whose bytes do not match its hash, by its hash alone', async () => {
    const { record, images } = withDrawings(completed(auditRecord({ signers: 2, eventCount: 3 })))
    const [first, second] = record.submitters.map((s) => (s.values[0]!.value as { sha256: string }).sha256)
    const given = new Map(images)
    given.delete(first!)
    given.set(second!, images.get(first!) ?? new Uint8Array())
    const pdf = await auditLogPdf(record, { images: given })
    assert.equal((await imagesOf(pdf)).filter((i) => i.type === 'image' && i.size === '600x200').length, 0)
    const text = (await pdfText(pdf)).replace(/\s+/g, ' ')
    assert.equal(text.split('image not included in this file').length - 1, 2)
  })

  it('breaks a very long e-mail address only after "@" or a dot, and hashes only between groups of 16', async () => {
    const { record, images } = withDrawings(completed(auditRecord({ signers: 2, eventCount: 6 })))
    const long = 'anna.petrova.procurement-department@very-long-subsidiary-name.example.com'
    assert.equal(record.submitters[1]!.email, long)
    const text = await pdfText(await auditLogPdf(record, { images }))
    const occurrences = brokenOccurrences(text, long)
    assert.ok(occurrences.length >= 2, `${occurrences.length} occurrences`)
    assert.ok(
      occurrences.some((o) => o.includes('\n')),
      'the narrow column broke the address',
    )
    for (const o of occurrences) {
      for (const after of breaksAfter(o)) assert.match(after, /[@.]/, JSON.stringify(o))
    }
    for (const hash of [record.final_pdf!.sha256, ...record.documents.map((d) => d.sha256)]) {
      for (const o of brokenOccurrences(text, hash)) {
        const lengths = o.split('\n').map((line) => line.length)
        assert.ok(
          lengths.slice(0, -1).every((n) => n % 16 === 0),
          JSON.stringify(o),
        )
      }
    }
    const signatureHash = (record.submitters[0]!.values[0]!.value as { sha256: string }).sha256
    const inAside = brokenOccurrences(text, signatureHash).filter((o) => o.includes('\n'))
    assert.ok(inAside.length > 0, 'the hash under the picture is on two lines')
    for (const o of inAside)
      assert.deepEqual(
        o.split('\n').map((l) => l.length),
        [32, 32],
      )
  })

  it('quotes the consent in the language the signer saw, saying which', async () => {
    const base = completed(auditRecord({ signers: 3, eventCount: 3 }))
    const french =
      "En signant, j'accepte de signer ce document électroniquement et que ma signature électronique soit une signature électronique simple au sens du règlement (UE) n° 910/2014 (eIDAS), avec la même intention que ma signature manuscrite."
    const [a, b, c] = base.submitters as [AuditSubmitter, AuditSubmitter, AuditSubmitter]
    const record: AuditRecord = {
      ...base,
      submitters: [
        { ...a, consent_text: french, consent_language: 'fr' },
        { ...b, consent_language: null },
        { ...c, status: 'declined', signed_at: null, declined_at: c.signed_at, consent_language: 'en' },
      ],
    }
    assert.ok(Value.Check(AuditRecord, record))
    const text = (await pagesOf(await auditLogPdf(record))).join(' ')
    for (const part of [
      `accepted by signing, in French (fr): “${french}”`,
      `accepted by signing, the page's language was not recorded: the English wording: “${b.consent_text}”`,
      `shown; the signer declined, in English (en): “${c.consent_text}”`,
    ]) {
      assert.ok(text.includes(part), `missing: ${part}`)
    }
  })

  it('ends with how to verify (the final SHA-256) and, as the last line, the completion', async () => {
    const timestamp = { authority: 'https://tsa.example/', time: '2026-11-22T10:40:01.000Z' }
    const record = completed(auditRecord({ signers: 3, eventCount: 40 }), timestamp)
    const last = record.submitters
      .map((s) => s.signed_at!)
      .sort()
      .at(-1)
    assert.equal(
      record.completion,
      `Completed on ${last} — all 3 signers signed; the final PDF was sealed by Paraph at ${record.completed_at} and time-stamped by https://tsa.example/ at 2026-11-22T10:40:01.000Z.`,
    )
    assert.equal(
      record.verification,
      `Anyone can check the final PDF: its SHA-256 is ${record.final_pdf!.sha256}; open it in a PDF reader to see Paraph's seal valid over the whole file.`,
    )
    const pages = await pagesOf(await auditLogPdf(record))
    const lastPage = pages.at(-1)!.trim()
    const footer = `Audit trail · ${record.submission_id} · page ${pages.length} of ${pages.length}`
    assert.ok(
      lastPage.endsWith(`${record.completion} ${footer}`),
      `${lastPage.slice(-400)} ≠ ${record.completion} ${footer}`,
    )
    assert.ok(lastPage.includes(record.verification!), 'verification on the last page')
    assert.ok(lastPage.indexOf(record.verification!) < lastPage.indexOf(record.completion!))
    const events = pages.join(' ').lastIndexOf(record.events.at(-1)!.id)
    assert.ok(events < pages.join(' ').indexOf(record.completion!), 'after the timeline')
  })

  it('says an unfinished submission was not completed, on its last line', async () => {
    const record: AuditRecord = {
      ...auditRecord({ signers: 1, eventCount: 3 }),
      status: 'declined',
      final_pdf: null,
      completed_at: null,
    }
    const pages = await pagesOf(await auditLogPdf(record))
    assert.match(
      pages.at(-1)!,
      /Not completed: the submission is declined; no final PDF was made\. Audit trail ·/,
    )
    assert.doesNotMatch(pages.join(' '), /Anyone can check/)
  })

  it('lays out two signers named in Chinese and Arabic, in their blocks and sentences', async () => {
    const base = auditRecord({ signers: 2, eventCount: 6 })
    const [a, b] = base.submitters as [AuditSubmitter, AuditSubmitter]
    const named = {
      ...base,
      submitters: [
        { ...a, name: '王小明' },
        { ...b, name: 'أحمد الفاسي', email: 'ahmed@example.ma' },
      ],
    }
    const { record, images } = withDrawings(completed(named))
    const pdf = await auditLogPdf(record, { images })
    // Reading order (not -raw), bidi embedding marks dropped: how a reader copies the text.
    const { stdout } = await runOn(pdf, 'pdftotext', (path) => ['-enc', 'UTF-8', path, '-'])
    const lines = stdout
      .replace(/[\u202A-\u202E]/g, '')
      .split(/[\n\f]/)
      .map((line) => line.trim())
    for (const line of ['Signer 1 of 2: 王小明', 'Signer 2 of 2: أحمد الفاسي', '王小明', 'أحمد الفاسي']) {
      assert.ok(lines.includes(line), `missing line: ${line}`)
    }
    const text = lines.join(' ')
    assert.ok(text.includes('Signed by 王小明 (lukasz.zolc@example.pl) from'), 'CJK name in a sentence')
    // poppler places the parenthesis after an Arabic name its own way; the name and address are there.
    assert.ok(
      lines.some(
        (l) =>
          l.startsWith('Viewed for the first time, by') &&
          l.includes('أحمد الفاسي') &&
          l.includes('ahmed@example.ma)'),
      ),
    )
    assert.doesNotMatch(text, /\?\?\?/)
    await qpdfCheck(pdf)
  })
})

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
