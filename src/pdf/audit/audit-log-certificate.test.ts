// The audit trail as a certificate of completion: events in words, the signers'
// images beside them, addresses never broken mid-word, the consent in the signer's language, how to
// verify the final PDF and the completion last. Split from audit-log-pdf.test.ts.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { Value } from 'typebox/value'
import { auditRecord, completed, withDrawings } from '../../../test/fixtures/audit-records.ts'
import { inkCount } from '../../../test/fixtures/ink.ts'
import { pageTexts, pdfText, qpdfCheck, rasterize } from '../../../test/fixtures/poppler.ts'
import { runOn } from '../../../test/run-tool.ts'
import { auditLogPdf } from './audit-log-pdf.ts'
import { AuditRecord, type AuditSubmitter } from './audit-record.ts'

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
    const text = (await pageTexts(await auditLogPdf(record))).join(' ')
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
    const text = (await pageTexts(await auditLogPdf(record))).join(' ')
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
    const pages = await pageTexts(await auditLogPdf(record))
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
    const pages = await pageTexts(await auditLogPdf(record))
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
