// The line protocol between the pool (child-pool.ts) and its children (inspector-child.ts):
// one JSON object per line each way. Types only, so the child's bundle stays mupdf + node.
import type { CertificationLevel } from './original-facts.ts'
import type { Rect } from './page-box.ts'

export interface InspectRequest {
  id: number
  /** Absolute, read by the child itself: the file's bytes never pass through the server. */
  path: string
}

/** A page's boxes as written in the file, with the attributes inherited from its ancestors. */
export interface RawPage {
  mediaBox: Rect
  cropBox?: Rect
  rotate?: number
}

/**
 * Facts about a readable file that the API does not show, kept for the finalizer and the audit
 * trail: whether it was encrypted (opened with the empty user password), whether MuPDF had to
 * repair it, its DocMDP level if certified, and how many signature fields are already signed.
 */
export interface FileFacts {
  encrypted: boolean
  repaired: boolean
  certification?: CertificationLevel
  signatures: number
}

/** What the child found in one file. */
export type Finding =
  | ({ ok: true; pages: RawPage[]; version: string } & FileFacts)
  /** Opening it needs a password that is not empty. */
  | { ok: false; reason: 'password' }
  | { ok: false; reason: 'too_many_pages'; pageCount: number }
  /** `cause`: one line of at most 120 characters, without path or stack, fit to show the client. */
  | { ok: false; reason: 'unreadable'; cause: string }

/**
 * `bytes`, the file's size, and `rss`, the child's resident memory once done: either large tells
 * the pool to replace the child (MuPDF's WASM memory grows and never shrinks).
 */
export type InspectAnswer = { id: number; bytes: number; rss: number } & Finding
