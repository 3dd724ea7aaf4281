// What the finalizer child (pdf/finalizer/finalizer-protocol.ts) reads, written to a private work directory:
// the documents as sent and one stamp per area of each value, images as PNG files (files travel by
// path, never through the server's memory). Shared by the sealed final PDF (finalize-submission.ts)
// and the signer's document as it stands (signing-page/current-pdf.ts).
import { createWriteStream } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import type { SubmittersTable } from '../db/tables.ts'
import type { Deps } from '../deps.ts'
import type { StoredDocument, StoredField } from '../documents/document-model.ts'
import { pngDataUrlBytes } from '../documents/field-values.ts'
import { isStoredImage, parseStoredValues, type StoredValue } from '../documents/stored-values.ts'
import { sha256Hex } from '../lib/crypto.ts'
import { own } from '../lib/own.ts'
import type { FinalizeStamp, FinalizeStampValue } from '../pdf/finalizer/finalizer-protocol.ts'

/** Writes `bytes` as `name` in the work directory; answers its absolute path. */
export type Writer = (name: string, bytes: Uint8Array) => Promise<string>

/** A value to draw on every area of its field. */
export interface ValueToDraw {
  field: StoredField
  value: StoredValue
  /** A line drawn under a signature in its area (docs/api.md#signer-groups: who of a group signed). */
  caption?: string
}

/** Of a signature area with a caption: the drawing above, the line of text below. */
const CAPTION_SHARE = 0.28

/** Runs `work` with a fresh private directory (0700) and a writer of 0600 files in it, then removes it. */
export async function inWorkDirectory<T>(
  prefix: string,
  work: (dir: string, write: Writer) => Promise<T>,
): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), prefix))
  try {
    const write: Writer = async (name, bytes) => {
      const path = join(dir, name)
      await writeFile(path, bytes, { mode: 0o600 })
      return path
    }
    return await work(dir, write)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/** The documents as sent, copied in order into `dir` as streams (never whole in memory); their paths. */
export function writeDocuments(deps: Pick<Deps, 'blobs'>, documents: StoredDocument[], dir: string) {
  return Promise.all(
    documents.map(async (d, i) => {
      const source = await deps.blobs.stream(d.blob_key)
      if (!source) throw new Error(`document ${i + 1} is missing from storage`)
      const path = join(dir, `document-${i}.pdf`)
      await pipeline(source, createWriteStream(path, { mode: 0o600 }))
      return path
    }),
  )
}

/**
 * Every value of every submitter, each in its own role's fields, in signing order. A signer group's
 * signature names the member who signed under it (docs/api.md#signer-groups): the group's row
 * carries their name and address once they signed.
 */
export function valuesOfSubmitters(fields: StoredField[], submitters: SubmittersTable[]): ValueToDraw[] {
  return submitters.flatMap((submitter) => {
    const values = parseStoredValues(submitter.values)
    const caption = submitter.grouped === 1 && submitter.status === 'signed' ? signedByLine(submitter) : null
    return fields.flatMap((field) => {
      const value = field.role === submitter.role ? own(values, field.name) : undefined
      if (value === undefined) return []
      return [caption && field.type === 'signature' ? { field, value, caption } : { field, value }]
    })
  })
}

function signedByLine(signer: Pick<SubmittersTable, 'name' | 'email'>): string {
  return `Signed by ${signer.name ? `${signer.name} (${signer.email})` : signer.email}`
}

/** What a value looks like drawn: formatted text, a check mark, or the PNG (written for the child). */
async function stampValue(
  { field, value }: ValueToDraw,
  deps: Pick<Deps, 'blobs'>,
  write: Writer,
): Promise<FinalizeStampValue | null> {
  if (isStoredImage(value)) {
    const png = await deps.blobs.get(value.image)
    if (!png) throw new Error(`the signed image of field "${field.name}" is missing from storage`)
    return { kind: 'image', path: await write(`${value.sha256}.png`, png) }
  }
  const png = field.type === 'signature' || field.type === 'initials' ? pngDataUrlBytes(value) : null
  if (png) return { kind: 'image', path: await write(`${sha256Hex(png)}.png`, png) }
  if (field.type === 'checkbox') return value === true ? { kind: 'check', checked: true } : null
  return { kind: 'text', text: String(value) }
}

/** One stamp per area of each value. */
export async function stampsOf(values: ValueToDraw[], deps: Pick<Deps, 'blobs'>, write: Writer) {
  const stamps: FinalizeStamp[] = []
  for (const entry of values) {
    const drawn = await stampValue(entry, deps, write)
    if (!drawn) continue
    for (const { document, page, x, y, w, h } of entry.field.areas) {
      if (!entry.caption) {
        stamps.push({ document, page, area: { x, y, w, h }, value: drawn })
        continue
      }
      const below = h * CAPTION_SHARE
      stamps.push({ document, page, area: { x, y, w, h: h - below }, value: drawn })
      stamps.push({
        document,
        page,
        area: { x, y: y + h - below, w, h: below },
        value: { kind: 'text', text: entry.caption },
      })
    }
  }
  return stamps
}
