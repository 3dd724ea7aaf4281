// The line protocol between the server's finalizer pool (finalize-pdf.ts, over child-pool.ts) and
// its children (finalizer-child.ts). Files travel by path: the bytes of documents, images and
// results never pass through the server's memory. Types only, so the child's bundle stays small.
import type { AuditRecord, FinalFacts } from '../audit/audit-record.ts'

export type { FinalFacts }

import type { FractionArea } from '../final/page-space.ts'

export type FinalizeStampValue =
  | { kind: 'image'; path: string }
  | { kind: 'text'; text: string }
  | { kind: 'check'; checked: boolean }

export interface FinalizeStamp {
  /** 0-indexed document of the submission. */
  document: number
  /** 1-indexed within its document. */
  page: number
  area: FractionArea
  value: FinalizeStampValue
}

/** Where the service's sealing certificate comes from (signing-certificate.ts). */
export interface IdentitySource {
  dataDir: string
  p12?: string
  password?: string
}

export interface FinalizeRequest {
  submissionId: string
  /** Absolute paths of the documents as sent, in order. */
  documents: string[]
  /** Their names, in order: in a merged final PDF, each one's outline item and field group. */
  documentNames: string[]
  stamps: FinalizeStamp[]
  /** The audit trail without `final_pdf`, which the child fills in once the final PDF is sealed. */
  audit: AuditRecord
  /** The seal's time (/M), ISO 8601. */
  signedAt: string
  identity: IdentitySource
  /** TSA_URL: both seals then carry its time-stamp, or the request fails. */
  tsaUrl?: string
  /** Where the child writes the sealed final PDF and the sealed audit PDF. */
  finalPath: string
  auditPath: string
}

export interface MadeFile {
  sha256: string
  bytes: number
}

/** Milliseconds spent on each step in the child, for the job's log line. */
export interface FinalizeTimings {
  /** Reading the inputs, merging, drawing the values and footers, saving. */
  build: number
  sealFinal: number
  /** Hashing the sealed final PDF, laying out and saving the audit trail. */
  audit: number
  sealAudit: number
  /** Hashing the sealed audit trail, writing both files. */
  write: number
}

export type FinalizeAnswer = { id: number } & (
  | { ok: true; final: MadeFile; audit: MadeFile; timings: FinalizeTimings; facts: FinalFacts }
  /** `cause`: one line without paths or stack, fit to show on the submission; `detail` for the log. */
  | { ok: false; reason: 'failed'; cause: string; detail?: string }
)

/**
 * The document as it stands, made by the same child: the documents merged and the
 * values entered so far drawn, with a footer saying it is an unsealed copy. No seal, no audit trail.
 */
export interface CurrentPdfRequest {
  kind: 'current'
  submissionId: string
  /** Absolute paths of the documents as sent, in order. */
  documents: string[]
  /** Their names, in order. */
  documentNames: string[]
  stamps: FinalizeStamp[]
  /** Until when the values drawn were entered, as the footer states it. */
  asOf: string
  /** Where the child writes the PDF. */
  outPath: string
}

export type CurrentPdfAnswer = { id: number } & (
  | { ok: true; current: MadeFile }
  | { ok: false; reason: 'failed'; cause: string; detail?: string }
)
