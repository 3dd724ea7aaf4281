// The line protocol between html-tagger.ts and its children (html-tag-child.ts), carried by
// src/child-pool/child-pool.ts: one JSON object per line each way. The HTML travels by path, both ways,
// so neither 4 MB document passes through the pipe. Types only.
import type { FoundTag, TagSource } from './html-tags.ts'

export interface TagRequest {
  id: number
  /** Absolute path of the document's HTML (UTF-8). */
  input: string
  /** Absolute path where the child writes the marked HTML. */
  output: string
  markPrefix: string
  source: TagSource
}

/** What the child made of one document; each message is fit to show the client. */
export type Tagging =
  | { ok: true; tags: FoundTag[] }
  /** A malformed, unclosed or surplus tag (invalid_template_tag). */
  | { ok: false; reason: 'tag'; message: string }
  /** A document refused as a whole (nested too deep, too many elements). */
  | { ok: false; reason: 'invalid'; message: string }
  | { ok: false; reason: 'failed'; cause: string }

export type TagAnswer = { id: number } & Tagging
