// How field values are kept on a submitter (`values` JSON) and shown back. A signed image is stored
// as a blob and referenced by key, with its hash and size for the audit trail; reads turn it into a
// signed URL valid 1 hour ("images as signed URLs, not inlined megabytes"). Values
// prefilled at creation keep the form they were given in.
import type { BlobStore } from '../storage/blob-store.ts'
import type { FieldValue } from './field-values.ts'
import { downloadUrl } from './file-urls.ts'

export interface StoredImage {
  /** Blob key of the PNG. */
  image: string
  sha256: string
  width: number
  height: number
}

export type StoredValue = FieldValue | StoredImage

export type StoredValues = Record<string, StoredValue>

export function isStoredImage(value: unknown): value is StoredImage {
  return typeof value === 'object' && value !== null && typeof (value as StoredImage).image === 'string'
}

export function parseStoredValues(json: string): StoredValues {
  return (JSON.parse(json) ?? {}) as StoredValues
}

/** A purged signer's stored values: none, answered `null` (docs/privacy.md#purge). */
export const PURGED_VALUES = 'null'

/** Blob key of a signer's image: named by its hash, so a retried request writes the same blob. */
export function imageBlobKey(
  submitter: { account_id: string; environment: string; submission_id: string; id: string },
  sha256: string,
): string {
  const { account_id, environment, submission_id, id } = submitter
  return `${account_id}/${environment}/submissions/${submission_id}/values/${id}/${sha256}.png`
}

/** The values as the API shows them: images as signed URLs until `expiresAt`. */
export async function readableValues(
  ctx: { blobs: BlobStore; keys: { files: Buffer }; config: { publicUrl: string } },
  values: StoredValues,
  expiresAt: Date,
): Promise<Record<string, FieldValue>> {
  const entries = await Promise.all(
    Object.entries(values).map(async ([name, value]) => [
      name,
      isStoredImage(value) ? await downloadUrl(ctx, value.image, `${name}.png`, expiresAt) : value,
    ]),
  )
  return Object.fromEntries(entries)
}
