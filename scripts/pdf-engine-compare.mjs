// Measures the candidate PDF engines on a corpus of real PDFs, for
// docs/decisions/0001-pdf-engine.md. A measuring tool, not part of CI or of the product.
//
// Needs, in this worktree only (not saved to package.json):
//   npm install --no-save mupdf@1.28.1 @cantoo/pdf-lib@2.11.1
// and qpdf, pdfsig, pdftotext on the PATH (Debian: qpdf, poppler-utils).
// Run (tsx because it imports Paraph's own incremental writer from src/pdf):
//   npx tsx scripts/pdf-engine-compare.mjs CORPUS_DIR [--json out.json] [--runs 7]
// The corpus used for the record is listed, with its source commits, in the decision record.
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import * as cantoo from '@cantoo/pdf-lib'
import * as mupdf from 'mupdf'
import * as pdflib from 'pdf-lib'
import { sealPdf } from '../src/pdf/seal/seal-pades.ts'
import { loadSigningCertificate } from '../src/pdf/seal/signing-certificate.ts'
import { appendUpdate, readTail } from './pdf-lib-incremental.ts'

const STAMP = 'Paraph stamp 42'
const STAMP_TEXT = STAMP.replace(/\s+/g, '')
const work = mkdtempSync(join(tmpdir(), 'pdf-engine-'))

// --- the engines: each takes the original bytes and returns the stamped output -------------------

/** pdf-lib-like (pdf-lib or its fork): draw one line of Helvetica near the bottom of page 1. */
async function drawStamp(lib, doc) {
  const font = await doc.embedFont(lib.StandardFonts.Helvetica)
  doc.getPage(0).drawText(STAMP, { x: 20, y: 20, size: 10, font })
}

const engines = {
  /** Today: pdf-lib 1.17.1 loads and rewrites the whole file. */
  'pdf-lib full': async (bytes) => {
    const doc = await pdflib.PDFDocument.load(bytes, { updateMetadata: false })
    await drawStamp(pdflib, doc)
    return { out: await doc.save() }
  },
  /** pdf-lib parses and draws; Paraph's former appendUpdate (scripts/pdf-lib-incremental.ts) appends. */
  'pdf-lib + own writer': async (bytes) => {
    const tail = readTail(bytes)
    if (tail.encrypted) throw new Error('encrypted: the writer would append objects in clear')
    const doc = await pdflib.PDFDocument.load(bytes, { updateMetadata: false })
    const firstNew = Math.max(tail.size, doc.context.largestObjectNumber + 1)
    doc.context.largestObjectNumber = firstNew - 1
    await drawStamp(pdflib, doc)
    const page = doc.getPage(0)
    const refs = [page.ref, ...indirectResources(pdflib, page.node)]
    for (const [ref] of doc.context.enumerateIndirectObjects())
      if (ref.objectNumber >= firstNew) refs.push(ref)
    // the embedded font is only written by flush(), which save() would call
    await doc.flush()
    for (const [ref] of doc.context.enumerateIndirectObjects())
      if (ref.objectNumber >= firstNew && !refs.includes(ref)) refs.push(ref)
    const objects = refs.map((ref) => ({ ref, value: doc.context.lookup(ref) }))
    return { out: appendUpdate(bytes, tail, doc.context, objects).pdf, incremental: true }
  },
  '@cantoo/pdf-lib full': async (bytes) => {
    const doc = await cantoo.PDFDocument.load(bytes, { updateMetadata: false, password: '' })
    await drawStamp(cantoo, doc)
    return { out: await doc.save() }
  },
  '@cantoo/pdf-lib incremental': async (bytes) => {
    const doc = await cantoo.PDFDocument.load(bytes, {
      updateMetadata: false,
      password: '',
      forIncrementalUpdate: true,
    })
    await drawStamp(cantoo, doc)
    return { out: await doc.commit(), incremental: true }
  },
  'mupdf full (decrypt)': async (bytes) => {
    const { doc, facts } = mupdfOpen(bytes)
    mupdfStamp(doc)
    return { out: doc.saveToBuffer('encrypt=none,compress').asUint8Array().slice(), ...facts }
  },
  'mupdf incremental': async (bytes) => {
    const { doc, facts } = mupdfOpen(bytes)
    mupdfStamp(doc)
    return { out: doc.saveToBuffer('incremental').asUint8Array().slice(), incremental: true, ...facts }
  },
}

/** The page's /Resources and /Resources/Font when they are indirect: drawText changes them. */
function indirectResources(lib, pageNode) {
  const refs = []
  const resources = pageNode.get(lib.PDFName.of('Resources'))
  if (resources instanceof lib.PDFRef) refs.push(resources)
  const dict = pageNode.context.lookup(resources)
  const font = dict?.get?.(lib.PDFName.of('Font'))
  if (font instanceof lib.PDFRef) refs.push(font)
  return refs
}

function mupdfOpen(bytes) {
  const doc = new mupdf.PDFDocument(bytes)
  const facts = { repaired: doc.wasRepaired() }
  if (doc.needsPassword() && !doc.authenticatePassword('')) throw new Error('needs a password')
  return { doc, facts }
}

/** The same stamp as pdf-lib's: a content stream appended to page 1 with a Helvetica resource. */
function mupdfStamp(doc) {
  const page = doc.findPage(0)
  const font = doc.addSimpleFont(new mupdf.Font('Helvetica'))
  let resources = page.getInheritable('Resources')
  if (resources.isNull()) resources = doc.newDictionary()
  // copy when inherited, so other pages are untouched
  if (page.get('Resources').isNull()) {
    const own = doc.newDictionary()
    resources.forEach((value, key) => {
      own.put(key, value)
    })
    resources = own
    page.put('Resources', own)
  }
  let fonts = resources.get('Font')
  if (fonts.isNull()) {
    fonts = doc.newDictionary()
    resources.put('Font', fonts)
  }
  fonts.put('ParaphF1', font)
  const stream = doc.addStream(`q BT /ParaphF1 10 Tf 20 20 Td (${STAMP}) Tj ET Q`, {})
  const contents = page.get('Contents')
  const array = doc.newArray()
  if (contents.isArray()) for (let i = 0; i < contents.length; i++) array.push(contents.get(i))
  else if (!contents.isNull()) array.push(contents)
  array.push(stream)
  page.put('Contents', array)
}

// --- the checks, by qpdf and poppler (neither is a candidate) ----------------------------------

function run(cmd, args) {
  const r = spawnSync(cmd, args, { encoding: 'latin1', timeout: 60_000, maxBuffer: 64 << 20 })
  return { code: r.status, out: `${r.stdout}${r.stderr}` }
}

/** qpdf --check: 0 clean, 3 warnings (repaired on reading), 2 errors. */
const qpdfCheck = (file) => run('qpdf', ['--check', file]).code

/** The catalog's keys that a signed final must keep, read by qpdf from the file's trailer /Root. */
function catalogKeys(file) {
  const root = /\/Root (\d+) (\d+) R/.exec(run('qpdf', ['--show-object=trailer', file]).out)
  if (!root) return new Set()
  const catalog = run('qpdf', [`--show-object=${root[1]},${root[2]}`, file]).out
  return new Set(['Outlines', 'AcroForm', 'StructTreeRoot'].filter((k) => catalog.includes(`/${k} `)))
}

/** pdfsig: how many signatures it finds and how many it says are valid. */
function signatures(file) {
  const out = run('pdfsig', [file]).out
  return {
    count: (out.match(/^Signature #\d+/gm) ?? []).length,
    valid: (out.match(/Signature Validation: Signature is Valid\./g) ?? []).length,
  }
}

function pageOneText(file) {
  const r = run('pdftotext', ['-f', '1', '-l', '1', '-q', file, '-'])
  return r.code === 0 ? r.out.replace(/\s+/g, '') : null
}

// --- per file ------------------------------------------------------------------------------------

function originalFacts(path) {
  const bytes = readFileSync(path)
  const text = pageOneText(path)
  return {
    check: qpdfCheck(path),
    encrypted: run('qpdf', ['--is-encrypted', path]).code === 0,
    needsPassword: run('qpdf', ['--requires-password', path]).code === 0,
    keys: catalogKeys(path),
    sigs: signatures(path),
    text: text ? text.slice(0, 40) : '',
    bytes,
  }
}

async function measure(name, engine, original, file) {
  const result = { engine: name, file }
  let produced
  try {
    produced = await engine(original.bytes)
  } catch (error) {
    return { ...result, loaded: false, error: String(error?.message ?? error).slice(0, 120) }
  }
  const outPath = join(work, `${name.replace(/\W+/g, '_')}--${file}`)
  writeFileSync(outPath, produced.out)
  const sigs = original.sigs.valid ? signatures(outPath) : null
  const text = original.text ? pageOneText(outPath) : null
  return {
    ...result,
    loaded: true,
    repaired: produced.repaired,
    check: qpdfCheck(outPath),
    prefix: Buffer.from(produced.out.subarray(0, original.bytes.length)).equals(original.bytes),
    encryptedOut: run('qpdf', ['--is-encrypted', outPath]).code === 0,
    keys: catalogKeys(outPath),
    earlierValid: sigs ? sigs.valid >= original.sigs.valid : null,
    // the stamp's own line may land anywhere in the reading order
    textKept: original.text ? (text ?? '').replace(STAMP_TEXT, '').includes(original.text) : null,
    stamped: (text ?? pageOneText(outPath) ?? '').includes(STAMP_TEXT),
  }
}

// --- fixtures made here: a 100-page PDF for timing, an original sealed by Paraph ------------------

async function hundredPages() {
  const doc = await pdflib.PDFDocument.create()
  const font = await doc.embedFont(pdflib.StandardFonts.Helvetica)
  for (let i = 1; i <= 100; i++) {
    const page = doc.addPage([595.276, 841.89])
    for (let line = 0; line < 40; line++)
      page.drawText(`Page ${i}, line ${line}: the parties agree to the terms below.`, {
        x: 50,
        y: 800 - line * 18,
        size: 11,
        font,
      })
  }
  return doc.save()
}

async function paraphSealed(corpus) {
  const original = readFileSync(
    join(
      corpus,
      readdirSync(corpus).find((f) => f.includes('crazyones.pdf')),
    ),
  )
  const identity = await loadSigningCertificate({ dataDir: work, now: new Date('2026-01-01') })
  return sealPdf(original, identity, { signedAt: new Date('2026-01-02'), name: 'Corpus' })
}

async function timing(bytes, runs) {
  const rows = {}
  for (const [name, engine] of Object.entries(engines)) {
    const times = []
    for (let i = 0; i < runs; i++) {
      const start = performance.now()
      await engine(bytes)
      times.push(performance.now() - start)
    }
    times.sort((a, b) => a - b)
    rows[name] = Math.round(times[Math.floor(runs / 2)])
  }
  return rows
}

// --- summary -------------------------------------------------------------------------------------

function summarise(originals, results) {
  const rows = {}
  for (const name of Object.keys(engines)) {
    const mine = results.filter((r) => r.engine === name)
    const of = (filter, pass) => {
      const set = mine.filter((r) => filter(originals.get(r.file), r))
      return `${set.filter((r) => pass(originals.get(r.file), r)).length}/${set.length}`
    }
    /** Kept by the engine's output, of those it loaded that had the part. */
    const kept = (key) => {
      const set = mine.filter((r) => originals.get(r.file).keys.has(key))
      const loaded = set.filter((r) => r.loaded)
      return `${loaded.filter((r) => r.keys.has(key)).length}/${set.length} (${loaded.length} loaded)`
    }
    const readable = (o) => !o.needsPassword && o.check !== 2
    const openable = (o) => o.encrypted && !o.needsPassword
    rows[name] = {
      'loads (readable by qpdf)': of(readable, (_, r) => r.loaded),
      'output passes qpdf --check': of(readable, (_, r) => r.loaded && r.check === 0),
      'qpdf-clean original: output clean': of(
        (o) => readable(o) && o.check === 0,
        (_, r) => r.loaded && r.check === 0,
      ),
      'stamp visible on page 1 (pdftotext)': of(readable, (_, r) => r.loaded && r.stamped),
      'page-1 text kept': of(
        (o) => readable(o) && o.text,
        (_, r) => r.textKept === true,
      ),
      'original is byte prefix': of(readable, (_, r) => r.loaded && r.prefix),
      'empty-password encrypted: opened': of(openable, (_, r) => r.loaded),
      'empty-password encrypted: output clean': of(openable, (_, r) => r.loaded && r.check === 0),
      'empty-password encrypted: output still encrypted': of(openable, (_, r) => r.loaded && r.encryptedOut),
      'empty-password encrypted: text kept': of(
        (o) => openable(o) && o.text,
        (_, r) => r.textKept === true,
      ),
      'needs password: refused': of(
        (o) => o.needsPassword,
        (_, r) => !r.loaded,
      ),
      'damaged (qpdf warns): output clean': of(
        (o) => o.check === 3,
        (_, r) => r.loaded && r.check === 0,
      ),
      'outlines kept': kept('Outlines'),
      'AcroForm kept': kept('AcroForm'),
      'StructTreeRoot kept': kept('StructTreeRoot'),
      'earlier signature still valid': of(
        (o) => o.sigs.valid > 0,
        (_, r) => r.earlierValid === true,
      ),
      'earlier signature valid and output qpdf-clean': of(
        (o) => o.sigs.valid > 0,
        (_, r) => r.earlierValid === true && r.check === 0,
      ),
    }
  }
  return rows
}

function printTable(rows) {
  const names = Object.keys(rows)
  const measures = Object.keys(rows[names[0]])
  console.log(`| measure | ${names.join(' | ')} |`)
  console.log(`|---|${names.map(() => '---').join('|')}|`)
  for (const m of measures) console.log(`| ${m} | ${names.map((n) => rows[n][m]).join(' | ')} |`)
}

async function main() {
  const [corpus, ...rest] = process.argv.slice(2)
  if (!corpus)
    throw new Error('usage: npx tsx scripts/pdf-engine-compare.mjs CORPUS_DIR [--json out] [--runs n]')
  const jsonOut = rest[rest.indexOf('--json') + 1]
  const runs = rest.includes('--runs') ? Number(rest[rest.indexOf('--runs') + 1]) : 7
  writeFileSync(join(work, 'generated--paraph-sealed.pdf'), await paraphSealed(corpus))
  const files = [
    ...readdirSync(corpus).map((f) => join(corpus, f)),
    join(work, 'generated--paraph-sealed.pdf'),
  ].filter((f) => f.toLowerCase().endsWith('.pdf'))
  const originals = new Map()
  const results = []
  for (const path of files) {
    const file = path.split('/').at(-1)
    const original = originalFacts(path)
    originals.set(file, original)
    for (const [name, engine] of Object.entries(engines))
      results.push(await measure(name, engine, original, file))
  }
  const census = {
    files: files.length,
    'qpdf --check clean': [...originals.values()].filter((o) => o.check === 0).length,
    'qpdf warns (repairable)': [...originals.values()].filter((o) => o.check === 3).length,
    'qpdf errors': [...originals.values()].filter((o) => o.check === 2).length,
    'encrypted, empty user password': [...originals.values()].filter((o) => o.encrypted && !o.needsPassword)
      .length,
    'needs a password': [...originals.values()].filter((o) => o.needsPassword).length,
    outlines: [...originals.values()].filter((o) => o.keys.has('Outlines')).length,
    AcroForm: [...originals.values()].filter((o) => o.keys.has('AcroForm')).length,
    StructTreeRoot: [...originals.values()].filter((o) => o.keys.has('StructTreeRoot')).length,
    'validly signed': [...originals.values()].filter((o) => o.sigs.valid > 0).length,
  }
  console.log('corpus:', JSON.stringify(census))
  const rows = summarise(originals, results)
  printTable(rows)
  const hundred = await hundredPages()
  const times = await timing(hundred, runs)
  console.log(`\n100-page load+stamp+save, median of ${runs} runs (ms):`, JSON.stringify(times))
  console.log('outputs kept in', work)
  if (jsonOut) {
    const plain = results.map((r) => ({ ...r, keys: r.keys ? [...r.keys] : undefined }))
    writeFileSync(jsonOut, JSON.stringify({ census, rows, times, results: plain }, null, 1))
  }
  for (const cmd of ['qpdf --version', 'pdfsig -v'])
    console.log(execFileSync('sh', ['-c', `${cmd} 2>&1 | head -1`], { encoding: 'utf8' }).trim())
}

await main()
