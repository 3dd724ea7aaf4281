// Signed, expiring URLs of stored files (docs/api.md#files: valid 1 hour). S3 presigns its own; for
// the filesystem store Paraph serves the bytes behind a token sealed with a key derived from
// PARAPH_SECRET, so an edited or expired URL is refused.
import { ApiError } from '../errors.ts'
import { seal, unseal } from '../lib/crypto.ts'
import type { BlobStore } from '../storage/blob-store.ts'

export const FILE_URL_TTL_MS = 60 * 60 * 1000

interface FileClaims {
  /** Blob key. */
  k: string
  /** Download name. */
  n: string
  /** Expiry, epoch ms. */
  e: number
}

export function fileUrlFor(
  key: Buffer,
  publicUrl: string,
  blobKey: string,
  name: string,
  expiresAt: Date,
): string {
  const claims: FileClaims = { k: blobKey, n: name, e: expiresAt.getTime() }
  return `${publicUrl}/files/${seal(key, JSON.stringify(claims))}`
}

export function readFileToken(key: Buffer, token: string, now: Date): { blobKey: string; name: string } {
  const text = unseal(key, token)
  if (text === null)
    throw new ApiError('invalid_file_url', 'This file URL is not valid; ask the API for a fresh one.')
  const claims = JSON.parse(text) as FileClaims
  if (claims.e <= now.getTime()) {
    throw new ApiError(
      'invalid_file_url',
      'This file URL has expired; ask the API for a fresh one (URLs are valid 1 hour).',
    )
  }
  return { blobKey: claims.k, name: claims.n }
}

/** The store's own presigned URL when it has one (S3), else a URL Paraph serves. */
export async function downloadUrl(
  ctx: { blobs: BlobStore; keys: { files: Buffer }; config: { publicUrl: string } },
  blobKey: string,
  name: string,
  expiresAt: Date,
): Promise<string> {
  const presigned = await ctx.blobs.presignedGetUrl(blobKey, expiresAt, name)
  return presigned ?? fileUrlFor(ctx.keys.files, ctx.config.publicUrl, blobKey, name, expiresAt)
}

/** The download name of a submission's sealed final PDF. */
export function signedPdfName(documents: Array<{ name: string }>): string {
  const first = documents[0]?.name.replace(/\.pdf$/i, '') ?? 'document'
  return `${first}${documents.length > 1 ? ' and others' : ''} (signed).pdf`
}

export function pdfName(name: string): string {
  return name.toLowerCase().endsWith('.pdf') ? name : `${name}.pdf`
}

/** The download name of the document as it stands: `Contract (as of 2026-11-26).pdf`. */
export function currentPdfName(documents: Array<{ name: string }>, asOf: Date): string {
  const first = documents[0]?.name.replace(/\.pdf$/i, '') ?? 'document'
  const day = asOf.toISOString().slice(0, 10)
  return `${first}${documents.length > 1 ? ' and others' : ''} (as of ${day}).pdf`
}
