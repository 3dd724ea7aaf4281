// Turns the `documents[]` of a request into stored PDFs with known page sizes
// (docs/api.md#documents): base64 is decoded, URLs are downloaded through the SSRF guard into a
// temporary file, every PDF is inspected out of process while it is written to the blob store.
// Nothing is kept on failure.
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Config } from '../config.ts'
import { ApiError, type ErrorCode, fieldError } from '../errors.ts'
import { liftedByPrivateNetwork, PRIVATE_NETWORK_HINT } from '../lib/address-policy.ts'
import { SafeFetchError, safeDownload } from '../lib/safe-fetch.ts'
import { LIMITS } from '../limits.ts'
import { InvalidPdfError, inspectPdfFile } from '../pdf/read/inspect-pdf.ts'
import type { BlobStore } from '../storage/blob-store.ts'
import type { StoredDocument } from './document-model.ts'
import type { DocumentInput } from './field-schemas.ts'

export const MAX_PDF_BYTES = LIMITS.pdfBytes

type Source = { kind: 'base64'; data: string; field: string } | { kind: 'url'; url: string; field: string }

function sourceOf(doc: DocumentInput, path: string): Source {
  const given = (['pdf_base64', 'file', 'pdf_url'] as const).filter((k) => doc[k] !== undefined)
  if (given.length !== 1) {
    throw fieldError(
      'invalid_request',
      path,
      `give exactly one of pdf_base64, file or pdf_url (got ${given.length}).`,
    )
  }
  const field = given[0]!
  const value = doc[field]!
  if (field === 'pdf_url' || (field === 'file' && /^[a-z][a-z0-9+.-]*:\/\//i.test(value))) {
    return { kind: 'url', url: value, field: `${path}.${field}` }
  }
  return { kind: 'base64', data: value, field: `${path}.${field}` }
}

/**
 * Base64 (optionally as a data URL) with nothing skipped: anything else is `invalid_pdf`. Node's
 * decoder silently skips characters outside the alphabet, and each skipped one shortens the
 * output, so a body of 4n characters ending in p '=' must decode to exactly 3n − p bytes. That
 * length test costs nothing, where a round trip or a regular expression over megabytes cost ms.
 */
function decodedWhole(body: string, bytes: Buffer): boolean {
  const padding = body.endsWith('==') ? 2 : body.endsWith('=') ? 1 : 0
  return body.length % 4 === 0 && bytes.length === (body.length / 4) * 3 - padding
}

export function decodeBase64Pdf(data: string, field: string): Buffer {
  const prefixed = data.startsWith('data:application/pdf;base64,')
  let body = prefixed ? data.slice('data:application/pdf;base64,'.length) : data
  let bytes = Buffer.from(body, 'base64')
  // Line-wrapped base64 fails once; only then are its whitespace runs removed (a scan for
  // whitespace on every upload cost as much as decoding it).
  if (!decodedWhole(body, bytes) && /\s/.test(body)) {
    body = body.replace(/\s+/g, '')
    bytes = Buffer.from(body, 'base64')
  }
  if (body.length === 0) throw fieldError('invalid_pdf', field, 'is empty; send the PDF as base64.')
  if (!decodedWhole(body, bytes)) {
    throw fieldError('invalid_pdf', field, 'not valid base64.')
  }
  if (bytes.length > MAX_PDF_BYTES) {
    throw fieldError(
      'invalid_pdf',
      field,
      `the PDF is ${bytes.length} bytes; at most ${MAX_PDF_BYTES} bytes (50 MB).`,
    )
  }
  return bytes
}

function nameFromUrl(url: string): string | undefined {
  try {
    const last = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '')
    return last.replace(/\.pdf$/i, '').slice(0, 255) || undefined
  } catch {
    return undefined
  }
}

interface IntakeContext {
  config: Readonly<Config>
  blobs: BlobStore
  trustedCa?: string
}

async function download(source: Extract<Source, { kind: 'url' }>, file: string, ctx: IntakeContext) {
  const { config } = ctx
  try {
    const response = await safeDownload(source.url, file, {
      allowPrivateNetwork: config.allowPrivateNetworkUrls,
      allowHttp: config.allowPrivateNetworkUrls,
      maxBytes: MAX_PDF_BYTES,
      maxRedirects: LIMITS.pdfUrlRedirects,
      connectTimeoutMs: LIMITS.pdfUrlConnectMs,
      totalTimeoutMs: LIMITS.pdfUrlTotalMs,
      ...(ctx.trustedCa ? { ca: ctx.trustedCa } : {}),
    })
    if (response.status < 200 || response.status > 299) {
      throw fieldError(
        'invalid_pdf_url',
        source.field,
        `the server answered HTTP ${response.status}, not a PDF.`,
      )
    }
  } catch (error) {
    if (error instanceof SafeFetchError) {
      // docs/api.md#pdf-urls: a refusal the setting would lift says what to do, with its risk.
      const hint = liftedByPrivateNetwork(error) ? ` ${PRIVATE_NETWORK_HINT}.` : ''
      throw fieldError('invalid_pdf_url', source.field, `${error.message}.${hint}`)
    }
    throw error
  }
}

/** Page sizes of the file, or the refusal the client gets under `code` (invalid_pdf or invalid_pdf_url). */
async function inspect(file: string, source: Source, code: ErrorCode): Promise<StoredDocument['pages']> {
  try {
    return (await inspectPdfFile(file)).pages
  } catch (error) {
    if (error instanceof InvalidPdfError) throw fieldError(code, source.field, `${error.message}.`)
    throw error
  }
}

async function store(ctx: IntakeContext, blobKey: string, file: string, path: string) {
  try {
    return await ctx.blobs.putFile(blobKey, file, 'application/pdf')
  } catch (error) {
    throw new ApiError(
      'storage_upload_failed',
      `Storing ${path} failed; nothing was created. Retry with the same Idempotency-Key.`,
      {},
      error,
    )
  }
}

async function intakeOne(
  doc: DocumentInput,
  index: number,
  blobKey: string,
  dir: string,
  ctx: IntakeContext,
): Promise<StoredDocument> {
  const path = `documents[${index}]`
  const source = sourceOf(doc, path)
  const file = join(dir, `${index}.pdf`)
  // Every PDF becomes a temporary file, which the reader opens and the blob store takes over.
  if (source.kind === 'base64')
    await writeFile(file, decodeBase64Pdf(source.data, source.field), { mode: 0o600 })
  else await download(source, file, ctx)
  const code = source.kind === 'url' ? 'invalid_pdf_url' : 'invalid_pdf'
  // The reader checks the file (a missing %PDF- header first, before any parsing) while the blob
  // is written and synced: a valid upload waits for the slower of the two instead of both. A
  // refused one has its blob removed before answering.
  const [pages, stored] = await Promise.allSettled([
    inspect(file, source, code),
    store(ctx, blobKey, file, path),
  ])
  if (pages.status === 'rejected' || stored.status === 'rejected') {
    if (stored.status === 'fulfilled') await ctx.blobs.delete(blobKey)
    throw pages.status === 'rejected' ? pages.reason : (stored as PromiseRejectedResult).reason
  }
  const name =
    doc.name ?? (source.kind === 'url' ? nameFromUrl(source.url) : undefined) ?? `Document ${index + 1}`
  return { name, blob_key: blobKey, sha256: stored.value.sha256, size: stored.value.size, pages: pages.value }
}

/** Stores every document under `keyOf(index)`; on any failure, removes what was stored and throws. */
export async function intakeDocuments(
  documents: DocumentInput[],
  keyOf: (index: number) => string,
  ctx: IntakeContext,
): Promise<StoredDocument[]> {
  const dir = await mkdtemp(join(tmpdir(), `paraph-intake-${randomBytes(4).toString('hex')}-`))
  const stored: StoredDocument[] = []
  try {
    for (const [index, doc] of documents.entries())
      stored.push(await intakeOne(doc, index, keyOf(index), dir, ctx))
    return stored
  } catch (error) {
    await Promise.allSettled(stored.map((d) => ctx.blobs.delete(d.blob_key)))
    throw error
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}
