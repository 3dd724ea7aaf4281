// Every script prints. Names and values in ten scripts drawn as the final PDF and
// the audit trail draw them, then read back with poppler as a reader would.
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { describe, it } from 'node:test'
import { inflateSync } from 'node:zlib'
import { PageSizes, PDFArray, PDFDocument, PDFRawStream, PDFRef } from 'pdf-lib'
import { auditRecord } from '../../../test/fixtures/audit-records.ts'
import { inkBounds, pixelBox } from '../../../test/fixtures/ink.ts'
import { qpdfCheck, rasterize } from '../../../test/fixtures/poppler.ts'
import { auditLogPdf } from '../audit/audit-log-pdf.ts'
import { addFooters } from '../final/footer.ts'
import { stampFields } from '../final/stamp-fields.ts'
import { drawableText, embedFont, MISSING_GLYPH } from './fonts.ts'
import { shapeLine } from './text-line.ts'

const SCRIPTS = [
  { script: 'Latin', name: 'Zoë Ångström-Łukasiewicz', value: 'Straße 12, 30-001 Kraków' },
  { script: 'Greek', name: 'Γιώργος Παπαδόπουλος', value: 'Οδός Ερμού 5, Αθήνα' },
  { script: 'Cyrillic', name: 'Анна Сергеевна Иванова', value: 'ул. Ленина, д. 7, Москва' },
  { script: 'Chinese', name: '王小明', value: '北京市朝阳区建国路88号' },
  { script: 'Japanese', name: '山田 太郎', value: 'とうきょうと しんじゅくく にししんじゅく' },
  { script: 'Korean', name: '김민준', value: '서울특별시 강남구 테헤란로 152' },
  { script: 'Arabic', name: 'أحمد محمد علي', value: 'شارع الملك فهد الرياض' },
  { script: 'Hebrew', name: 'דוד כהן', value: 'רחוב הרצל תל אביב' },
  { script: 'Devanagari', name: 'प्रिया शर्मा', value: 'नई दिल्ली, भारत गणराज्य' },
  { script: 'Thai', name: 'สมชาย ใจดี', value: 'กรุงเทพมหานคร ประเทศไทย' },
]

/**
 * pdftotext in reading order (not -raw): right-to-left lines come back in logical order, marked
 * with embedding controls, which are dropped here. One string per line, trimmed, empty ones left out.
 * (poppler guesses the order of digits and punctuation inside right-to-left lines its own way:
 * "רחוב הרצל 12, תל אביב", drawn right, comes back as "רחוב הרצל  ,12תל אביב"; values here avoid them.)
 */
function readingOrderLines(pdf: Uint8Array): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn('pdftotext', ['-enc', 'UTF-8', '-', '-'])
    const out: Buffer[] = []
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk))
    child.on('error', reject)
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`pdftotext exited ${code}`))
      const text = Buffer.concat(out)
        .toString('utf8')
        .replace(/[\u202A-\u202E]/g, '')
      resolve(
        text
          .split(/[\n\f]/)
          .map((line) => line.trim())
          .filter(Boolean),
      )
    })
    child.stdin.end(pdf)
  })
}

/** One text value per line of an A4 page, as the final PDF stamps them. */
async function stampedValues(values: string[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create()
  doc.addPage(PageSizes.A4)
  const font = await embedFont(doc, 'sans')
  const stamps = values.map((text, i) => ({
    page: 1,
    area: { x: 0.08, y: 0.05 + i * 0.045, w: 0.84, h: 0.03 },
    value: { kind: 'text' as const, text },
  }))
  await stampFields(doc, stamps, font)
  return doc.save()
}

/** The glyph codes a page's content shows, as 4-digit hex strings, in drawing order. */
async function shownGlyphs(pdf: Uint8Array): Promise<string[]> {
  const doc = await PDFDocument.load(pdf)
  const contents = doc.getPage(0).node.Contents()
  const refs = contents instanceof PDFArray ? contents.asArray() : [contents]
  const text = refs
    .map((ref) => (ref instanceof PDFRef ? doc.context.lookup(ref) : ref))
    .map((stream) =>
      stream instanceof PDFRawStream ? Buffer.from(inflateSync(stream.contents)).toString('latin1') : '',
    )
    .join('\n')
  return [...text.matchAll(/<([0-9a-f]{4})>/g)].map((match) => match[1]!)
}

describe('every script', () => {
  it('prints values in ten scripts that pdftotext reads back exactly, in logical order', async () => {
    const values = SCRIPTS.map((s) => s.value)
    const pdf = await stampedValues(values)
    assert.deepEqual(await readingOrderLines(pdf), values)
    await qpdfCheck(pdf)
  })

  it("prints signers' names in ten scripts in the audit trail, headings (bold) and rows", async () => {
    const base = auditRecord()
    const template = base.submitters[0]!
    const submitters = SCRIPTS.map((s, i) => ({
      ...template,
      id: `${template.id.slice(0, -2)}${String(i).padStart(2, '0')}`,
      name: s.name,
      email: `signer${i}@example.com`,
    }))
    const pdf = await auditLogPdf({ ...base, submitters })
    const lines = await readingOrderLines(pdf)
    for (const [i, { name }] of SCRIPTS.entries()) {
      assert.ok(lines.includes(`Signer ${i + 1} of ${SCRIPTS.length}: ${name}`), `heading of ${name}`)
      assert.ok(
        lines.includes(`Name ${name}`) || lines.includes(name),
        `row of ${name}: ${lines.join(' | ')}`,
      )
    }
    await qpdfCheck(pdf)
  })

  it('prints the footer with a CJK name on every page', async () => {
    const doc = await PDFDocument.create()
    for (let i = 0; i < 3; i++) doc.addPage(PageSizes.A4)
    addFooters(doc, await embedFont(doc, 'sans'), (n, m) => [
      'Signed by 王小明 and 김민준',
      'sub_x',
      `page ${n} of ${m}`,
    ])
    const lines = await readingOrderLines(await doc.save())
    assert.deepEqual(
      lines,
      [1, 2, 3].map((n) => `Signed by 王小明 and 김민준 · sub_x · page ${n} of 3`),
    )
  })
})

describe('Arabic', () => {
  it('is shaped: letters take their joining forms, lam-alef is one glyph, and those glyphs are drawn', async () => {
    const font = await embedFont(await PDFDocument.create(), 'sans')
    const [run] = shapeLine(font.typeface, 'أحمد').runs
    assert.ok(run?.rtl)
    const isolated = [...'أحمد'].map((char) => run.face.hb.nominalGlyph(char.codePointAt(0)!))
    const drawn = run.glyphs.map((glyph) => glyph.id)
    // Drawn right to left: the glyph array is in visual order, the last letter first.
    assert.equal(drawn.length, 4)
    assert.notDeepEqual([...drawn].reverse(), isolated, 'joining forms, not the isolated letters')
    assert.ok(drawn.filter((id, i) => id !== [...isolated].reverse()[i]).length >= 2)
    const lamAlef = shapeLine(font.typeface, 'لا').runs[0]!
    assert.equal(lamAlef.glyphs.length, 1, 'lam-alef: one glyph for two letters')

    const pdf = await stampedValues(['أحمد', 'لا'])
    const hex = (id: number) => id.toString(16).padStart(4, '0')
    assert.deepEqual(await shownGlyphs(pdf), [...drawn.map(hex), hex(lamAlef.glyphs[0]!.id)])
    assert.deepEqual(await readingOrderLines(pdf), ['أحمد', 'لا'])
  })

  it('reads right to left beside left-to-right text: a name followed by an e-mail address', async () => {
    const font = await embedFont(await PDFDocument.create(), 'sans')
    const line = shapeLine(font.typeface, 'أحمد ahmed@example.com')
    assert.ok(line.rtl, 'the paragraph reads right to left')
    // Visual order: the address on the left, then the name at the right end.
    const pieces = line.runs.map((run) => line.text.slice(run.start, run.end))
    assert.equal(pieces.at(-1)?.trim(), 'أحمد')
    assert.ok(pieces.some((piece) => piece.includes('ahmed@example.com')))
    const mixed = shapeLine(font.typeface, 'Signed by أحمد علي (CEO)')
    assert.equal(mixed.rtl, false)
    assert.deepEqual(
      mixed.runs.map((run) => [mixed.text.slice(run.start, run.end), run.rtl]),
      [
        ['Signed by ', false],
        ['أحمد علي', true],
        [' ', false],
        ['(CEO)', false],
      ],
    )
    const [, arabicRun] = mixed.runs
    assert.deepEqual(
      arabicRun!.glyphs.map((glyph) => glyph.cluster),
      [...arabicRun!.glyphs.map((glyph) => glyph.cluster)].sort((a, b) => b - a),
      'the Arabic run is drawn from its last letter to its first',
    )
    // poppler orders a line by the direction most of the page's letters take: here right to left.
    const arabic = ['أحمد محمد علي', 'شارع الملك فهد الرياض', 'أحمد ahmed@example.com']
    assert.deepEqual(await readingOrderLines(await stampedValues(arabic)), arabic)
    const hebrew = ['דוד כהן', 'רחוב הרצל תל אביב', 'דוד כהן david@example.co.il']
    assert.deepEqual(await readingOrderLines(await stampedValues(hebrew)), hebrew)
  })
})

describe('right-to-left values', () => {
  it('start at the right edge of their box, as they are read', async () => {
    const pdf = await stampedValues(['أحمد محمد علي', 'Zoë Ångström'])
    const raster = await rasterize(pdf)
    const box = (i: number) => pixelBox(raster, { x: 0.08, y: 0.05 + i * 0.045, w: 0.84, h: 0.03 })
    const [arabic, latin] = [inkBounds(raster, box(0))!, inkBounds(raster, box(1))!]
    assert.ok(
      box(0).right - arabic.right <= 4 && arabic.left - box(0).left > 100,
      'Arabic against the right edge',
    )
    assert.ok(
      latin.left - box(1).left <= 4 && box(1).right - latin.right > 100,
      'Latin against the left edge',
    )
  })
})

describe('complex scripts', () => {
  it('draws Devanagari conjuncts and Thai marks as single clusters, extracted as typed', async () => {
    const font = await embedFont(await PDFDocument.create(), 'sans')
    assert.equal(shapeLine(font.typeface, 'क्ष').runs[0]!.glyphs.length, 1, 'क्ष is one conjunct glyph')
    const ki = shapeLine(font.typeface, 'कि').runs[0]!.glyphs
    const ka = font.typeface.scriptFace('क', 'कि')!.hb.nominalGlyph(0x0915)
    assert.deepEqual(
      ki.map((glyph) => glyph.id === ka),
      [false, true],
      'the vowel sign is drawn before its consonant',
    )
    const values = ['क्षत्रिय किताब', 'น้ำใจ ผู้ใหญ่']
    assert.deepEqual(await readingOrderLines(await stampedValues(values)), values)
  })

  it('prints a character no installed face has as "?", never a blank box or an error', async () => {
    const doc = await PDFDocument.create()
    const font = await embedFont(doc, 'sans')
    assert.equal(drawableText(font, 'Abebe ሰላም'), `Abebe ${MISSING_GLYPH.repeat(3)}`)
    assert.deepEqual(await readingOrderLines(await stampedValues(['Abebe ሰላም Bekele'])), ['Abebe ??? Bekele'])
  })
})
