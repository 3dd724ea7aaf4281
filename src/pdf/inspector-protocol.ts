// The line protocol between the pool (child-pool.ts) and its children (inspector-child.ts):
// one JSON object per line each way. Types only, so the child's bundle stays pdf-lib + node.
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

/** What the child found in one file. */
export type Finding =
  | { ok: true; pages: RawPage[]; version?: string }
  | { ok: false; reason: 'encrypted' }
  /** `capped`: counting stopped at `pageCount`, the file has more. */
  | { ok: false; reason: 'too_many_pages'; pageCount: number; capped: boolean }
  /** `cause`: one line of at most 120 characters, without path or stack, fit to show the client. */
  | { ok: false; reason: 'unreadable'; cause: string }

/** `bytes`, the file's size, tells the pool when to recycle the child. */
export type InspectAnswer = { id: number; bytes: number } & Finding
