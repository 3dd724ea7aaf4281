// The document as it stands — every document of the submission with the values
// this signer may see (visible-values.ts) drawn on it, under a footer saying it is an unsealed copy.
// To read before signing, and the signer's own copy right after: the final PDF exists only once
// everyone has signed.
//
// Made on the first download, not with the form (the page must not wait for it), by the finalizer's
// child code (pdf/finalizer/finalize-pdf.ts makeCurrentPdf: an OS memory limit, a timeout, one at a time per
// process), then kept in storage under a hash of what it shows: a link downloaded a thousand times
// makes it once, and a new signature makes a new version. Two requests for one version at once make
// it once; at most LIMITS.currentPdfQueue versions are made or waiting per process.
import { join } from 'node:path'
import type { SubmissionsTable } from '../db/tables.ts'
import type { Deps } from '../deps.ts'
import { currentPdfName } from '../documents/file-urls.ts'
import { ApiError } from '../errors.ts'
import { canonicalJson, sha256Hex } from '../lib/crypto.ts'
import { LIMITS } from '../limits.ts'
import { FinalizeError, makeCurrentPdf } from '../pdf/finalizer/finalize-pdf.ts'
import { inWorkDirectory, stampsOf, writeDocuments } from '../submissions/pdf-inputs.ts'
import type { TemplateRecord } from '../templates/template-store.ts'
import { type VisibleValue, valuesAsOf } from './visible-values.ts'

/** Bump when what the child draws changes, so no copy made by older code is served again. */
const DRAWING_VERSION = 1

export interface CurrentPdf {
  /** Blob key of this version. */
  key: string
  /** Download name: `Contract (as of 2026-11-26).pdf`. */
  name: string
  /** Until when the values drawn were entered (ISO 8601). */
  asOf: string
}

type Submission = Pick<SubmissionsTable, 'id' | 'account_id' | 'environment' | 'created_at'>
type Documents = Pick<TemplateRecord, 'documents'>

/** The version of the document as it stands showing `visible`: where it is kept and how it is named. */
export function currentPdfOf(
  submission: Submission,
  template: Documents,
  visible: VisibleValue[],
): CurrentPdf {
  const asOf = valuesAsOf(visible, submission.created_at)
  const version = sha256Hex(
    canonicalJson({
      drawing: DRAWING_VERSION,
      documents: template.documents.map((d) => [d.blob_key, d.sha256]),
      values: visible.map((v) => [v.field.name, v.value]),
      asOf,
    }),
  ).slice(0, 32)
  const base = `${submission.account_id}/${submission.environment}/submissions/${submission.id}`
  return {
    key: `${base}/current/${version}.pdf`,
    name: currentPdfName(template.documents, new Date(asOf)),
    asOf,
  }
}

const making = new Map<string, Promise<void>>()

// A version the child could not make (too long, too much memory) is not tried again for a while:
// downloading its link in a loop must not keep a child busy. The oldest failures are forgotten first.
const failures = new Map<string, { until: number; error: ApiError }>()
const FAILURE_KEPT_MS = 10 * 60 * 1000
const FAILURES_KEPT = 256

function remember(key: string, error: ApiError, now: Date): void {
  failures.delete(key)
  failures.set(key, { until: now.getTime() + FAILURE_KEPT_MS, error })
  if (failures.size > FAILURES_KEPT) failures.delete(failures.keys().next().value!)
}

export interface MakeOptions {
  /** Versions made or waiting at once, beyond which 503 `current_pdf_busy`. */
  queue?: number
  /** Time allowed to the child for one version. */
  timeoutMs?: number
}

/** The document as it stands, made and stored unless it already is; its key and name. */
export async function ensureCurrentPdf(
  deps: Deps,
  submission: Submission,
  template: Documents,
  visible: VisibleValue[],
  { queue = LIMITS.currentPdfQueue, timeoutMs = LIMITS.currentPdfMs }: MakeOptions = {},
): Promise<CurrentPdf> {
  const pdf = currentPdfOf(submission, template, visible)
  if (await deps.blobs.exists(pdf.key)) return pdf
  const failed = failures.get(pdf.key)
  if (failed && failed.until > deps.clock.now().getTime()) throw failed.error
  let job = making.get(pdf.key)
  if (!job) {
    if (making.size >= queue) {
      throw new ApiError(
        'current_pdf_busy',
        'Too many documents are being prepared right now; try again in a few seconds.',
        { 'retry-after': '10' },
      )
    }
    job = make(deps, submission, template, visible, pdf, timeoutMs).finally(() => making.delete(pdf.key))
    making.set(pdf.key, job)
  }
  await job
  return pdf
}

/** `2026-11-26 14:03 UTC`: the footer is read by people, in any zone. */
function footerTime(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`
}

async function make(
  deps: Deps,
  submission: Submission,
  template: Documents,
  visible: VisibleValue[],
  pdf: CurrentPdf,
  timeoutMs: number,
): Promise<void> {
  await inWorkDirectory('paraph-current-', async (dir, write) => {
    const outPath = join(dir, 'current.pdf')
    const request = {
      kind: 'current' as const,
      submissionId: submission.id,
      documents: await writeDocuments(deps, template.documents, dir),
      documentNames: template.documents.map((d) => d.name),
      stamps: await stampsOf(visible, deps, write),
      asOf: footerTime(pdf.asOf),
      outPath,
    }
    try {
      await makeCurrentPdf(request, { timeoutMs })
    } catch (error) {
      if (!(error instanceof FinalizeError)) throw error
      const refusal = new ApiError(
        'current_pdf_failed',
        `The document could not be prepared: ${error.message}.`,
      )
      remember(pdf.key, refusal, deps.clock.now())
      throw refusal
    }
    await deps.blobs.putFile(pdf.key, outPath, 'application/pdf')
  })
}
