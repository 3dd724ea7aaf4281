// The line protocol between docx-to-html.ts and its children (docx-child.ts), carried by
// src/child-pool/child-pool.ts: one JSON object per line each way. Files travel by path, so neither the
// DOCX nor the HTML passes through the pipe. Types only: the child's bundle stays mammoth + node.

export interface ConvertRequest {
  id: number
  /** Absolute path of the DOCX, already through readZipDirectory in the server. */
  input: string
  /** Absolute path where the child writes the HTML fragment. */
  output: string
  /** The fragment is not written past this many UTF-8 bytes. */
  maxHtmlBytes: number
}

/** A mammoth warning, for the server's debug log. */
export interface ConvertMessage {
  type: string
  message: string
}

/** What the child made of one file; `cause` is one line fit to show the client. */
export type Conversion =
  | { ok: true; bytes: number; messages: ConvertMessage[] }
  /** The gate's second step refused it (a directory that lies), or mammoth found no Word document. */
  | { ok: false; reason: 'invalid'; cause: string }
  | { ok: false; reason: 'too_large'; bytes: number }
  | { ok: false; reason: 'failed'; cause: string }

export type ConvertAnswer = { id: number } & Conversion
