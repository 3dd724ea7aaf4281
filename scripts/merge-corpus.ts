// Runs the multi-document merge (src/pdf/merge/merge-documents.ts) on a corpus of real
// PDFs, each one merged twice — as the first document (a one-page letter appended after it) and as a
// later document (after the letter) — and prints what qpdf and poppler say of the results:
//   node --import tsx scripts/merge-corpus.ts CORPUS_DIR [--verbose]
// The corpus of docs/decisions/0001-pdf-engine.md fits (its list gives each file's source).
import { execFile } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { mergeDocuments } from '../src/pdf/merge/merge-documents.ts'
import { openPdf, PdfPasswordError } from '../src/pdf/read/mupdf-open.ts'
import { textPdf } from '../test/fixtures/merge-pdfs.ts'
import {
  type FormField,
  formFields,
  outlineTitles,
  pdftotext,
  qpdfCheck as qpdfCheckOrThrow,
} from '../test/pdf-checks.ts'

const [corpus, ...flags] = process.argv.slice(2)
if (!corpus) throw new Error('usage: node --import tsx scripts/merge-corpus.ts CORPUS_DIR [--verbose]')
const verbose = flags.includes('--verbose')
const letter = textPdf('Letter', 1)

type Role = 'first' | 'later'
/** qpdf itself crashes on a few damaged corpus files: that counts as an error (2). */
const qpdfCheck = (bytes: Uint8Array) =>
  qpdfCheckOrThrow(bytes).catch((error: Error) => ({ code: 2 as const, output: error.message }))
const tally = new Map<string, number>()
const count = (key: string) => tally.set(key, (tally.get(key) ?? 0) + 1)
const timings: number[] = []

function say(file: string, role: Role, message: string): void {
  if (verbose) console.log(`${file} [${role}] ${message}`)
}

/** Merges, then saves as the finalizer will: incrementally unless MuPDF repaired the base. */
function mergeAs(role: Role, bytes: Uint8Array, name: string) {
  const inputs = role === 'first' ? [bytes, letter] : [letter, bytes]
  const names = role === 'first' ? [name, 'letter.pdf'] : ['letter.pdf', name]
  const [base, other] = inputs.map((input, i) => ({ doc: openPdf(input).doc, name: names[i]! }))
  const started = performance.now()
  const result = mergeDocuments(base!, [other!])
  timings.push(performance.now() - started)
  const incremental = !base!.doc.wasRepaired()
  const merged = base!.doc
    .saveToBuffer(incremental ? 'incremental' : '')
    .asUint8Array()
    .slice()
  return { ...result, merged, incremental }
}

/** poppler's view of the structure tree with its text ("" when untagged or unreadable). */
function structureText(bytes: Uint8Array): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'paraph-merge-corpus-'))
  writeFileSync(join(dir, 'in.pdf'), bytes)
  return new Promise((resolve) => {
    execFile(
      'pdfinfo',
      ['-struct-text', join(dir, 'in.pdf')],
      { maxBuffer: 256 * 1024 * 1024, timeout: 60_000 },
      (error, stdout) => {
        rmSync(dir, { recursive: true, force: true })
        resolve(error ? '' : stdout)
      },
    )
  })
}

const quotedLines = (text: string) =>
  text
    .split('\n')
    .filter((line) => /^\s*"/.test(line))
    .map((line) => line.trim())

/**
 * A tagged file merged after itself: both copies' tagged text should be in the merged tree, the
 * second under a Part, and qpdf should still read the file cleanly.
 */
async function runTagged(file: string, bytes: Uint8Array, original: string, clean: boolean): Promise<void> {
  let merged: Uint8Array
  try {
    const [base, other] = [bytes, bytes].map((input, i) => ({
      doc: openPdf(input).doc,
      name: `copy${i + 1}.pdf`,
    }))
    mergeDocuments(base!, [other!])
    merged = base!.doc
      .saveToBuffer(base!.doc.wasRepaired() ? '' : 'incremental')
      .asUint8Array()
      .slice()
  } catch (error) {
    count('tagged twice: merge threw')
    say(file, 'first', `tagged twice threw ${(error as Error).message}`)
    return
  }
  const before = quotedLines(original)
  const after = quotedLines(await structureText(merged))
  const twice = JSON.stringify([...before, ...before].sort()) === JSON.stringify([...after].sort())
  if (twice) count('tagged twice: every tagged text found twice')
  else say(file, 'first', `tagged twice: ${after.length} tagged texts, ${before.length} in the original`)
  if (clean && (await qpdfCheck(merged)).code === 0) count('tagged twice: original clean → merged clean')
}

/** qpdf's warnings while reading the form and outlines ("widget … not reachable", loops). */
function formWarnings(bytes: Uint8Array): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'paraph-merge-corpus-'))
  writeFileSync(join(dir, 'in.pdf'), bytes)
  const args = ['--json=2', '--json-key=acroform', '--json-key=outlines', join(dir, 'in.pdf')]
  return new Promise((resolve) => {
    execFile('qpdf', args, { maxBuffer: 256 * 1024 * 1024, timeout: 60_000 }, (error, _stdout, stderr) => {
      rmSync(dir, { recursive: true, force: true })
      resolve(/WARNING/.test(stderr) || (error && !/WARNING/.test(stderr)) ? stderr || String(error) : '')
    })
  })
}

const minus = (list: string[], drop: string[]) => {
  const rest = [...list]
  for (const item of drop) rest.splice(rest.indexOf(item), 1)
  return rest
}

async function runOne(file: string, role: Role, bytes: Uint8Array, facts: Facts): Promise<void> {
  const name = 'doc.pdf'
  let result: ReturnType<typeof mergeAs>
  try {
    result = mergeAs(role, bytes, name)
  } catch (error) {
    count(`${role}: merge threw`)
    say(file, role, `threw ${(error as Error).message}`)
    return
  }
  count(`${role}: merged`)
  const check = await qpdfCheck(result.merged)
  if (facts.clean) count(`${role}: original qpdf-clean`)
  if (facts.clean && check.code === 0) count(`${role}: original clean → merged clean`)
  else if (facts.clean) say(file, role, `qpdf ${check.code}: ${check.output.slice(0, 300)}`)
  if (check.code === 2) return
  if (!facts.formWarnings) {
    const warnings = await formWarnings(result.merged)
    if (warnings) say(file, role, `form/outline warnings: ${warnings.slice(0, 300)}`)
    else count(`${role}: form and outlines read without warning (of those whose original did)`)
  }
  if (result.notes.length) say(file, role, `notes: ${result.notes.join(' | ')}`)
  if (facts.outline.length > 0) {
    count(`${role}: has outlines`)
    const titles = await outlineTitles(result.merged).catch(() => [])
    const own = minus(titles, [name, 'letter.pdf'])
    if (JSON.stringify(own) === JSON.stringify(facts.outline)) count(`${role}: outlines kept`)
    else
      say(
        file,
        role,
        `outline ${JSON.stringify(own).slice(0, 200)} vs ${JSON.stringify(facts.outline).slice(0, 200)}`,
      )
  }
  if (facts.fields.length > 0) {
    count(`${role}: has fields`)
    const prefix = role === 'later' ? 'doc.' : ''
    const got = new Set((await formFields(result.merged).catch(() => [])).map(fieldFact))
    const missing = facts.fields.filter((f) => !got.has(`${prefix}${f}`))
    if (missing.length === 0) count(`${role}: fields kept (names, values)`)
    else say(file, role, `fields missing ${missing.slice(0, 5).join(', ')}`)
  }
  if (facts.text) {
    count(`${role}: has text`)
    const offset = role === 'first' ? 0 : 1
    const text = await pdftotext(result.merged, {
      firstPage: offset + 1,
      lastPage: offset + facts.pages,
    }).catch(() => '')
    if (text === facts.text) count(`${role}: text kept`)
    else say(file, role, 'text differs')
  }
}

/** Name and value; a signature's value is dropped by a merge on purpose (its note says so). */
const fieldFact = (field: FormField) =>
  `${field.name}=${field.type === 'signature' ? '(signature)' : field.value}`

interface Facts {
  clean: boolean
  pages: number
  outline: string[]
  fields: string[]
  text: string
  formWarnings: string
}

async function factsOf(bytes: Uint8Array, pages: number): Promise<Facts> {
  const check = await qpdfCheck(bytes)
  const outline = await outlineTitles(bytes).catch(() => [])
  const fields = (await formFields(bytes).catch(() => [])).map(fieldFact)
  const text = await pdftotext(bytes).catch(() => '')
  return { clean: check.code === 0, pages, outline, fields, text, formWarnings: await formWarnings(bytes) }
}

for (const file of readdirSync(corpus).sort()) {
  const bytes = new Uint8Array(readFileSync(join(corpus, file)))
  let pages: number
  try {
    const opened = openPdf(bytes)
    pages = opened.doc.countPages()
  } catch (error) {
    count(error instanceof PdfPasswordError ? 'skipped: password' : 'skipped: mupdf cannot open')
    continue
  }
  count('opened')
  const facts = await factsOf(bytes, pages)
  if (!facts.formWarnings) count('original: form and outlines read without warning')
  for (const role of ['first', 'later'] as const) await runOne(file, role, bytes, facts)
  const structure = await structureText(bytes)
  if (quotedLines(structure).length > 0) {
    count('tagged (poppler reads tagged text)')
    if (facts.clean) count('tagged and qpdf-clean')
    await runTagged(file, bytes, structure, facts.clean)
  }
}

for (const [key, value] of [...tally.entries()].sort()) console.log(`${key}: ${value}`)
timings.sort((a, b) => a - b)
console.log(`merge ms: median ${timings[timings.length >> 1]?.toFixed(1)}, max ${timings.at(-1)?.toFixed(1)}`)
