// Issue #21's corpus run: every PDF of a folder through Paraph's whole path, as a client and a
// signer would take it — from_pdf with one signer, a text field and a signature field on page 1,
// the signer's open and sign, the finalization, the final PDF and the audit trail downloaded — then
// judged by qpdf and poppler (test/pdf-checks.ts). A measuring tool, not part of CI; see
// docs/pdf-corpus.md for the corpus (scripts/pdf-corpus-fetch.sh) and the measures.
//
//   npx tsx scripts/pdf-corpus.mjs CORPUS_DIR [--json out.json] [--only TEXT] [--timeout 120]
//                                  [--keep-finals DIR] [--base URL --key sk_test_…]
//   npx tsx scripts/pdf-corpus.mjs --write-fixtures DIR
//
// Without --base it starts its own `paraph serve` on a fresh SQLite database in a temporary folder.
import { randomUUID } from 'node:crypto'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { parseArgs } from 'node:util'
import { dataUrl, strokePng } from '../test/fixtures/png.ts'
import { startServe } from '../test/paraph-process.ts'
import { judgeFinal, judgeOriginal, summarize } from './pdf-corpus-measures.mjs'

const { values: options, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    json: { type: 'string' },
    only: { type: 'string' },
    timeout: { type: 'string', default: '120' },
    base: { type: 'string' },
    key: { type: 'string' },
    'write-fixtures': { type: 'string' },
    'keep-finals': { type: 'string' },
  },
})

/** The value typed into the text field: issue #21 found "Corpus check 42…" cut on A4 pages. */
export const TYPED = 'Corpus check 42 Łukasz Żółć'
const SIGNATURE = dataUrl(strokePng(300, 100))
/** The inline body limit is 4.5 MB (docs/api.md#limits); base64 is 4/3 of the file. */
const INLINE_LIMIT = Math.floor((4.5 * 1024 * 1024 * 3) / 4) - 16 * 1024

if (options['write-fixtures']) {
  await writeFixtures(options['write-fixtures'])
  process.exit(0)
}
const corpus = positionals[0]
if (!corpus) {
  console.error('usage: npx tsx scripts/pdf-corpus.mjs CORPUS_DIR [--json out.json] [--only TEXT]')
  process.exit(2)
}
const files = pdfsUnder(corpus).filter((file) => !options.only || file.includes(options.only))
const server = options.base
  ? { base: options.base, key: options.key, stop: async () => {} }
  : await startServer()
const results = []
try {
  for (const [i, file] of files.entries()) {
    const result = await runOne(server, file)
    results.push(result)
    console.log(`${String(i + 1).padStart(4)}/${files.length} ${lineOf(result)}`)
  }
} finally {
  await server.stop()
}
const summary = summarize(results)
console.log(`\n${summary.lines.join('\n')}`)
const privacy = results.filter((r) => r.privacy).map((r) => r.privacy)
if (privacy.length > 0) {
  const count = (test) => privacy.filter(test).length
  const reasons = Object.entries(Object.groupBy(privacy, (p) => p.original)).map(
    ([k, v]) => `${k} ${v.length}`,
  )
  console.log(
    `privacy (issue #36), ${privacy.length} completed files: final and audit verified ${count((p) => p.finalValid && p.auditValid)}, purged with documents 410 ${count((p) => p.purged && p.documentsGone)}, final verified after purge ${count((p) => p.validAfterPurge)}; originals: ${reasons.join(', ')}`,
  )
}
if (options.json)
  writeFileSync(options.json, `${JSON.stringify({ summary: summary.figures, results }, null, 2)}\n`)

function pdfsUnder(dir) {
  const found = []
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) found.push(...pdfsUnder(path))
    else if (name.toLowerCase().endsWith('.pdf')) found.push(path)
  }
  return found
}

async function startServer() {
  const dataDir = mkdtempSync(join(tmpdir(), 'paraph-corpus-'))
  const { process: child, base } = await startServe([], {
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    // Hundreds of files from one key and one address: the limits would measure themselves.
    RATE_LIMIT_TEST: '1000000000',
    RATE_LIMIT_SIGNER: '1000000000',
  })
  const key = /test key {2}(sk_test_\w+)/.exec(child.output)?.[1]
  if (!key) throw new Error(`no test key in the banner:\n${child.output}`)
  return {
    base,
    key,
    child,
    stop: async () => {
      await child.stop()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** One file, from upload to judged final; never throws (a failure is a result). */
async function runOne(server, path) {
  const file = relative(corpus, path)
  const original = readFileSync(path)
  const result = { file, bytes: original.length }
  const started = performance.now()
  try {
    result.original = await judgeOriginal(original)
    if (original.length > INLINE_LIMIT) return { ...result, skipped: 'larger than the inline body limit' }
    const created = await api(server, 'POST', '/v1/submissions/from_pdf', submissionBody(file, original))
    result.accepted = created.status === 201
    if (!result.accepted) {
      result.refusal = {
        status: created.status,
        code: created.body?.error?.code,
        message: created.body?.error?.message,
      }
      return result
    }
    const submission = created.body
    const slug = new URL(submission.submitters[0].signing_url).pathname.split('/').pop()
    await signerCall(server, slug, 'open')
    const signed = await signerCall(server, slug, 'sign', {
      values: { 'Corpus text': TYPED, Signature: SIGNATURE },
    })
    if (signed.status !== 200) return { ...result, outcome: 'sign refused', signRefusal: signed.body?.error }
    const signedAt = performance.now()
    const ended = await waitForEnd(server, submission.id)
    result.finalizeSeconds = (performance.now() - signedAt) / 1000
    result.outcome = ended.outcome
    if (ended.outcome !== 'completed') return { ...result, finalizationError: ended.error }
    const final = await download(server, submission.id)
    const audit = await api(server, 'GET', `/v1/submissions/${submission.id}/audit_log`, undefined, 'bytes')
    if (options['keep-finals']) keepFinals(file, final, audit.bytes)
    result.final = await judgeFinal(original, result.original, final, audit.bytes, TYPED)
    result.privacy = await verifyAndPurge(server, submission.id, original, final, audit.bytes)
    return result
  } catch (error) {
    return { ...result, outcome: 'script error', error: String(error?.stack ?? error) }
  } finally {
    result.seconds = (performance.now() - started) / 1000
  }
}

/**
 * Issue #36 on real files (docs/privacy.md): the original is no file Paraph sealed, the final and
 * the audit trail are; after a purge the documents answer 410 and the final still verifies.
 */
async function verifyAndPurge(server, id, original, final, audit) {
  const verify = async (bytes) => {
    const started = performance.now()
    const response = await fetch(`${server.base}/v1/verify`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.key}`, 'content-type': 'application/pdf' },
      body: bytes,
    })
    const body = await response.json()
    return {
      status: response.status,
      valid: body.valid,
      reason: body.reason,
      ms: performance.now() - started,
    }
  }
  const originalVerdict = await verify(original)
  const finalVerdict = await verify(final)
  const auditVerdict = await verify(audit)
  const purge = await api(server, 'POST', `/v1/submissions/${id}/purge`)
  const documents = await api(server, 'GET', `/v1/submissions/${id}/documents`)
  const afterPurge = await verify(final)
  return {
    original:
      originalVerdict.status === 200 && originalVerdict.valid === false
        ? originalVerdict.reason
        : `WRONG ${JSON.stringify(originalVerdict)}`,
    finalValid: finalVerdict.valid === true,
    auditValid: auditVerdict.valid === true,
    purged: purge.status === 200 && purge.body?.purged_at !== null,
    documentsGone: documents.status === 410,
    validAfterPurge: afterPurge.valid === true,
    verifyMs: finalVerdict.ms,
  }
}

function submissionBody(file, pdf) {
  const area = (y, h, w) => ({ page: 1, x: 0.08, y, w, h })
  return {
    documents: [
      {
        name: file.slice(-100),
        pdf_base64: pdf.toString('base64'),
        fields: [
          { name: 'Corpus text', type: 'text', role: 'signer', areas: [area(0.8, 0.05, 0.6)] },
          { name: 'Signature', type: 'signature', role: 'signer', areas: [area(0.87, 0.08, 0.3)] },
        ],
      },
    ],
    submitters: [{ role: 'signer', email: 'corpus@example.eu', name: 'Corpus Signer', send_email: false }],
  }
}

async function api(server, method, path, body, as = 'json') {
  const response = await fetch(`${server.base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${server.key}`,
      ...(body ? { 'content-type': 'application/json', 'idempotency-key': randomUUID() } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  })
  if (as === 'bytes' && response.ok)
    return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()) }
  const text = await response.text()
  let parsed
  try {
    parsed = JSON.parse(text)
  } catch {
    parsed = { error: { code: 'not_json', message: text.slice(0, 300) } }
  }
  return { status: response.status, body: parsed }
}

async function signerCall(server, slug, action, body) {
  const response = await fetch(`${server.base}/s/${slug}/${action}`, {
    method: 'POST',
    headers: { 'user-agent': 'ParaphCorpus/1.0', ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  })
  return { status: response.status, body: await response.json().catch(() => undefined) }
}

/** Polls the submission until it is completed or shows a finalization error, or the deadline. */
async function waitForEnd(server, id) {
  const deadline = performance.now() + Number(options.timeout) * 1000
  while (performance.now() < deadline) {
    const { body } = await api(server, 'GET', `/v1/submissions/${id}`)
    if (body?.status === 'completed') return { outcome: 'completed' }
    if (body?.finalization_error) return { outcome: 'finalization_error', error: body.finalization_error }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return { outcome: 'timeout', error: `neither completed nor failed within ${options.timeout} s` }
}

async function download(server, id) {
  const { body } = await api(server, 'GET', `/v1/submissions/${id}/documents`)
  // The URL is under PUBLIC_URL; the path is enough against the address this script knows.
  const url = new URL(body.signed_pdf_url)
  const response = await fetch(`${server.base}${url.pathname}${url.search}`)
  if (!response.ok) throw new Error(`final PDF download answered ${response.status}`)
  return Buffer.from(await response.arrayBuffer())
}

/** --keep-finals DIR: the final and the audit trail beside each other, for a person to look at. */
function keepFinals(file, final, audit) {
  const base = join(options['keep-finals'], file.replaceAll('/', '__').replace(/\.pdf$/i, ''))
  mkdirSync(options['keep-finals'], { recursive: true })
  writeFileSync(`${base}.final.pdf`, final)
  if (audit) writeFileSync(`${base}.audit.pdf`, audit)
}

function lineOf(r) {
  if (r.skipped) return `${r.file}: skipped, ${r.skipped}`
  if (r.accepted === false)
    return `${r.file}: refused ${r.refusal.status} ${r.refusal.code}: ${r.refusal.message}`
  if (r.outcome !== 'completed')
    return `${r.file}: ${r.outcome} ${r.finalizationError ?? r.error?.split('\n')[0] ?? ''}`
  const f = r.final
  const flags = [
    `qpdf ${f.qpdf}`,
    f.popplerText ? 'text' : 'NO TEXT',
    f.sealValid ? 'seal valid' : 'SEAL INVALID',
    f.sealTotal ? 'total' : 'NOT TOTAL',
    f.prefix ? 'prefix' : 'copy',
    f.typedWhole ? 'typed whole' : 'TYPED NOT FOUND WHOLE',
    ...['outlines', 'acroform', 'tags', 'earlierSignatures']
      .filter((k) => f.kept[k] !== null)
      .map((k) => `${k} ${f.kept[k] ? 'kept' : 'LOST'}`),
    ...(r.privacy ? privacyFlags(r.privacy) : []),
  ]
  return `${r.file}: completed ${r.seconds.toFixed(2)} s; ${flags.join(', ')}`
}

function privacyFlags(p) {
  return [
    `original ${p.original}`,
    p.finalValid && p.auditValid ? 'final and audit verify' : 'FINAL OR AUDIT NOT VERIFIED',
    p.purged && p.documentsGone ? 'purged, 410' : 'PURGE FAILED',
    p.validAfterPurge ? 'verifies after purge' : 'NOT VERIFIED AFTER PURGE',
  ]
}

/** Writes the generated feature fixtures (test/fixtures/pdf-features.ts) as files, to run them too. */
async function writeFixtures(dir) {
  const f = await import('../test/fixtures/pdf-features.ts')
  const made = {
    'outlines.pdf': f.pdfWithOutlines,
    'form.pdf': f.pdfWithForm,
    'tagged.pdf': f.taggedPdf,
    'signed.pdf': f.signedPdf,
    'certified-p1.pdf': () => f.certifiedPdf(1),
    'certified-p2.pdf': () => f.certifiedPdf(2),
    'certified-p3.pdf': () => f.certifiedPdf(3),
    'encrypted-empty-aes256.pdf': () => f.encryptedPdf({ userPassword: '' }),
    'encrypted-empty-aes128.pdf': () => f.encryptedPdf({ userPassword: '', encryption: 'aes-128' }),
    'encrypted-empty-rc4.pdf': () => f.encryptedPdf({ userPassword: '', encryption: 'rc4-40' }),
    'encrypted-password.pdf': () => f.encryptedPdf({ userPassword: 'user-secret' }),
    'junk-first.pdf': () => f.pdfWithoutHeader('junk-first'),
    'no-header.pdf': () => f.pdfWithoutHeader('no-header'),
    'root-is-page.pdf': f.pageTreeRootIsPage,
    'huge-object-numbers.pdf': () => f.hugeObjectNumbers('xref'),
    'huge-trailer-object.pdf': () => f.hugeObjectNumbers('trailer-object'),
    'no-media-box.pdf': f.pageWithoutMediaBox,
    'broken-xref.pdf': f.brokenXref,
  }
  mkdirSync(dir, { recursive: true })
  for (const [name, make] of Object.entries(made)) writeFileSync(join(dir, name), await make())
  console.log(`${Object.keys(made).length} fixtures written to ${dir}`)
}
