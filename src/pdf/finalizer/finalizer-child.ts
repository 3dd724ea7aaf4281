// A long-lived maker of final PDFs, started by child-pool.ts under an OS memory limit: for each
// request it merges the documents, draws the values, adds the footers and seals the result, then
// draws up the audit trail with the final PDF's hash and the signers' images, and seals it too. Asked for the document as
// it stands, it does the same merge and drawing under another footer, and stops there.
// Stored documents were accepted at intake but are still untrusted (a compressed object stream may
// inflate to gigabytes): here, a hostile one fails its own finalization and never the server.
import { createHash } from 'node:crypto'
import { readFile, writeFile } from 'node:fs/promises'
import { performance } from 'node:perf_hooks'
import { serveRequests } from '../../child-pool/child-loop.ts'
import { auditLogDocument } from '../audit/audit-log-pdf.ts'
import { withFinalPdf } from '../audit/audit-record.ts'
import { buildFinalDocument, buildFinalPdf, checkFinalPdf, type DocumentStamp } from '../final/final-pdf.ts'
import { FinalPdfError } from '../final/final-pdf-error.ts'
import { checkWithReaders, startReaders } from '../final/final-pdf-readers.ts'
import { interimFooter } from '../final/footer.ts'
import { quietMupdf } from '../read/mupdf-quiet.ts'
import { sealDocument, sealPdf } from '../seal/seal-pades.ts'
import { loadSigningCertificate, type SealingIdentity } from '../seal/signing-certificate.ts'
import type { Timestamp } from '../seal/timestamp.ts'
import type {
  CurrentPdfAnswer,
  CurrentPdfRequest,
  FinalFacts,
  FinalizeAnswer,
  FinalizeRequest,
  FinalizeStamp,
  FinalizeTimings,
  MadeFile,
} from './finalizer-protocol.ts'

const identities = new Map<string, Promise<SealingIdentity>>()

function identityFor(request: FinalizeRequest): Promise<SealingIdentity> {
  const key = JSON.stringify(request.identity)
  let identity = identities.get(key)
  if (!identity) {
    identity = loadSigningCertificate(request.identity)
    identities.set(key, identity)
  }
  return identity
}

async function stampOf(stamp: FinalizeStamp): Promise<DocumentStamp> {
  const { value } = stamp
  if (value.kind !== 'image') return { ...stamp, value }
  return { ...stamp, value: { kind: 'image', png: await readFile(value.path) } }
}

/** The authority as configured, without credentials a TSA_URL may carry. */
function stampFacts(url: string, token: Timestamp): NonNullable<FinalFacts['timestamp']> {
  const authority = new URL(url)
  authority.username = ''
  authority.password = ''
  return { authority: authority.toString(), time: token.time.toISOString() }
}

/** The drawn images by the SHA-256 of their bytes, as the audit record names them. */
function imagesOf(stamps: DocumentStamp[]): Map<string, Uint8Array> {
  const images = new Map<string, Uint8Array>()
  for (const { value } of stamps) {
    if (value.kind === 'image') images.set(createHash('sha256').update(value.png).digest('hex'), value.png)
  }
  return images
}

function made(bytes: Uint8Array): MadeFile {
  return { sha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.length }
}

/** Times each step: `lap()` answers the milliseconds since the previous lap. */
function stopwatch(): () => number {
  let last = performance.now()
  return () => {
    const now = performance.now()
    const elapsed = now - last
    last = now
    return Math.round(elapsed * 10) / 10
  }
}

async function finalize(
  request: FinalizeRequest,
): Promise<{ final: MadeFile; audit: MadeFile; timings: FinalizeTimings; facts: FinalFacts }> {
  const lap = stopwatch()
  const identity = await identityFor(request)
  const signedAt = new Date(request.signedAt)
  let timestamp: FinalFacts['timestamp'] = null
  const tsa = request.tsaUrl
  const seal = {
    signedAt,
    reason: 'Electronic seal of the signed document',
    name: identity.commonName,
    ...(tsa !== undefined ? { tsa: { url: tsa } } : {}),
  }
  // The final PDF's time-stamp goes into its audit trail, which is sealed (and time-stamped) after.
  const finalSeal =
    tsa === undefined
      ? seal
      : {
          ...seal,
          tsa: {
            url: tsa,
            onTimestamp: (token: Timestamp) => {
              timestamp = stampFacts(tsa, token)
            },
          },
        }
  const stamps = await Promise.all(request.stamps.map(stampOf))
  const document = await buildFinalDocument({
    documents: await Promise.all(request.documents.map((path) => readFile(path))),
    names: request.documentNames,
    stamps,
    submissionId: request.submissionId,
  })
  const build = lap()
  let sealed: Uint8Array
  try {
    sealed = await sealDocument(document.doc, identity, finalSeal)
  } finally {
    document.doc.destroy()
  }
  checkFinalPdf(sealed, document)
  // qpdf and poppler read the written final in their own processes while the audit trail is made.
  const readersChecked = writeFile(request.finalPath, sealed, { mode: 0o600 }).then(() =>
    checkWithReaders(request.finalPath, document.pageCount),
  )
  // Settled at the end; a rejection is not left unhandled meanwhile.
  readersChecked.catch(() => {})
  const sealFinal = lap()
  const final = made(sealed)
  const facts: FinalFacts = { documents: document.facts, notes: document.notes, timestamp }
  const record = withFinalPdf(request.audit, final.sha256, facts)
  const auditLog = await auditLogDocument(record, { images: imagesOf(stamps) })
  const audit = lap()
  const auditSealed = await sealPdf(auditLog.bytes, identity, {
    ...seal,
    reason: 'Electronic seal of the audit trail',
  })
  const sealAudit = lap()
  await Promise.all([writeFile(request.auditPath, auditSealed, { mode: 0o600 }), readersChecked])
  const timings = { build, sealFinal, audit, sealAudit, write: lap() }
  return { final, audit: made(auditSealed), timings, facts }
}

/** The document as it stands: built like the final PDF, under the interim footer, not sealed. */
async function current(request: CurrentPdfRequest): Promise<MadeFile> {
  const { bytes } = await buildFinalPdf({
    documents: await Promise.all(request.documents.map((path) => readFile(path))),
    names: request.documentNames,
    stamps: await Promise.all(request.stamps.map(stampOf)),
    submissionId: request.submissionId,
    footer: interimFooter(request.submissionId, request.asOf),
  })
  await writeFile(request.outPath, bytes, { mode: 0o600 })
  return made(bytes)
}

/**
 * What the submission shows (one sentence, no path or stack) and, when that is not the error's own
 * message, the message for the log.
 */
function causeOf(error: unknown): { cause: string; detail?: string } {
  if (error instanceof RangeError && /call stack/i.test(error.message))
    return { cause: 'a document nests its objects too deeply' }
  if (error instanceof RangeError && /allocation failed|Array buffer/i.test(error.message)) {
    return { cause: 'a document needs more memory than allowed' }
  }
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  if (typeof code === 'string') return { cause: `a file could not be read or written (${code})` }
  const line = (error instanceof Error ? error.message : String(error)).split('\n')[0]!.trim().slice(0, 300)
  if (error instanceof FinalPdfError)
    return { cause: line, ...(error.detail ? { detail: error.detail } : {}) }
  return {
    cause: 'the final PDF could not be made from the documents; the service log has the details',
    detail: line,
  }
}

type Request = (FinalizeRequest | CurrentPdfRequest) & { id: number }

// A damaged stored document makes MuPDF report every repair; what it comes to is the answer.
quietMupdf()
// Now, while this process is small: see final-pdf-readers.ts.
startReaders()

serveRequests<Request>(async (request): Promise<FinalizeAnswer | CurrentPdfAnswer> => {
  try {
    if ('kind' in request) {
      return { id: request.id, ok: true, current: await current(request) }
    }
    return { id: request.id, ok: true, ...(await finalize(request)) }
  } catch (error) {
    return { id: request.id, ok: false, reason: 'failed', ...causeOf(error) }
  }
})
