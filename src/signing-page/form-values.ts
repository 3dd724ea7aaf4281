// The values of the signing form (`form` in docs/api.md#the-signers-form), as the page reads
// them. An image is the URL of its PNG, signed like the document URLs (valid 1 hour to whoever holds
// this signer's form), always served by Paraph (`{PUBLIC_URL}/files/…`), never an S3 presigned URL:
// the page's Content-Security-Policy allows images from its own origin and PUBLIC_URL's only. The signer's own values keep the form they were stored in: a prefilled
// signature stays the data URL the page sends back with `sign`.
import type { Deps } from '../deps.ts'
import { type FieldValue, pngDataUrlBytes } from '../documents/field-values.ts'
import { fileUrlFor } from '../documents/file-urls.ts'
import { imageBlobKey, isStoredImage } from '../documents/stored-values.ts'
import { sha256Hex } from '../lib/crypto.ts'
import type { VisibleValue } from './visible-values.ts'

type Ctx = Pick<Deps, 'blobs' | 'keys' | 'config'>

/**
 * The blob of an image given as a data URL at creation (a pre-signed signature, a read-only
 * prefill): stored once under its hash, as a signed image is, so another signer's form carries a
 * URL rather than up to 512 KB of base64 per field on every call.
 */
async function storedImageKey(ctx: Ctx, entry: VisibleValue, png: Buffer): Promise<string> {
  const key = imageBlobKey(entry.holder, sha256Hex(png))
  if (!(await ctx.blobs.exists(key))) await ctx.blobs.put(key, png, 'image/png')
  return key
}

async function formValue(ctx: Ctx, entry: VisibleValue, expiresAt: Date): Promise<FieldValue> {
  const { field, value } = entry
  const name = `${field.name}.png`
  const url = (key: string) => fileUrlFor(ctx.keys.files, ctx.config.publicUrl, key, name, expiresAt)
  if (isStoredImage(value)) return url(value.image)
  const png = !entry.mine && (field.type === 'signature' || field.type === 'initials')
  const bytes = png ? pngDataUrlBytes(value) : null
  if (bytes) return url(await storedImageKey(ctx, entry, bytes))
  return value
}

/** Field name → value shown, for the visible values. */
export async function formValues(
  ctx: Ctx,
  visible: readonly VisibleValue[],
  expiresAt: Date,
): Promise<Map<string, FieldValue>> {
  const entries = await Promise.all(
    visible.map(async (entry) => [entry.field.name, await formValue(ctx, entry, expiresAt)] as const),
  )
  return new Map(entries)
}
