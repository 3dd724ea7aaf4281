// The measures of issue #21 for scripts/pdf-corpus.mjs: what an original has (so we know what a
// final must keep), what a final is, and the totals. Every judgement comes from qpdf or poppler
// through test/pdf-checks.ts; a tool that fails on one file gives null there, not a crash.
import {
  catalogKeys,
  formFields,
  isEncrypted,
  orphanWidgets,
  outlineTitles,
  pdfsig,
  pdftotext,
  qpdfCheck,
  requiresPassword,
} from '../test/pdf-checks.ts'

async function safe(promise, fallback = null) {
  try {
    return await promise
  } catch {
    return fallback
  }
}

/** qpdf --check's code, or 'crashed' when qpdf itself died. */
const qpdfCode = async (bytes) => (await safe(qpdfCheck(bytes)))?.code ?? 'crashed'

export async function judgeOriginal(bytes) {
  const keys = await safe(catalogKeys(bytes))
  const signatures = await safe(pdfsig(bytes), [])
  return {
    // qpdf 11.3 crashes (SIGSEGV) on a few damaged files: that is "cannot open" too.
    qpdf: await qpdfCode(bytes),
    encrypted: await safe(isEncrypted(bytes)),
    needsPassword: await safe(requiresPassword(bytes)),
    outlines: keys ? keys.has('Outlines') : null,
    outlineTitles: keys?.has('Outlines') ? await safe(outlineTitles(bytes)) : null,
    acroform: keys ? keys.has('AcroForm') : null,
    fieldNames: keys?.has('AcroForm') ? ((await safe(formFields(bytes))) ?? []).map((f) => f.name) : null,
    tagged: keys ? keys.has('StructTreeRoot') : null,
    orphanWidgets: await safe(orphanWidgets(bytes)),
    validSignatures: signatures.filter((s) => s.valid).length,
  }
}

/** Whitespace runs as one space: pdftotext may break a line where the PDF has none. */
const squeeze = (text) => text.replace(/\s+/g, ' ')

export async function judgeFinal(original, before, final, audit, typed) {
  const keys = await safe(catalogKeys(final))
  const signatures = await safe(pdfsig(final), [])
  // The seal is the one signature that can cover the whole file: the last revision's.
  const seal = signatures.find((s) => s.totalDocumentSigned) ?? signatures.at(-1)
  const earlier = signatures.filter((s) => s !== seal)
  const page1 = await safe(pdftotext(final, { firstPage: 1, lastPage: 1 }))
  const kept = {
    outlines: before.outlines
      ? Boolean(keys?.has('Outlines')) &&
        JSON.stringify(await safe(outlineTitles(final))) === JSON.stringify(before.outlineTitles)
      : null,
    // A form is an /AcroForm reaching at least one field.
    acroform: before.fieldNames?.length ? await fieldsKept(final, before) : null,
    tags: before.tagged ? Boolean(keys?.has('StructTreeRoot')) : null,
    earlierSignatures:
      before.validSignatures > 0 ? earlier.filter((s) => s.valid).length >= before.validSignatures : null,
  }
  return {
    bytes: final.length,
    qpdf: await qpdfCode(final),
    popplerText: page1 !== null && (await safe(pdftotext(final))) !== null,
    typedWhole: page1 !== null && squeeze(page1).includes(squeeze(typed)),
    sealValid: Boolean(seal?.valid),
    sealTotal: Boolean(seal?.totalDocumentSigned),
    signatures: signatures.map(({ fieldName, signer, validation, totalDocumentSigned }) => ({
      fieldName,
      signer,
      validation,
      totalDocumentSigned,
    })),
    // Widgets /AcroForm no longer reaches: fields a viewer cannot fill (neither kept nor flattened).
    orphanWidgets: await safe(orphanWidgets(final)),
    prefix: final.length > original.length && final.subarray(0, original.length).equals(original),
    kept,
    audit: audit
      ? {
          qpdf: (await qpdfCheck(audit)).code,
          sealValid: Boolean((await safe(pdfsig(audit), [])).at(-1)?.valid),
        }
      : null,
  }
}

/** Every field the original's /AcroForm reached, by name, and one more: the seal's own field. */
async function fieldsKept(final, before) {
  const names = ((await safe(formFields(final))) ?? []).map((f) => f.name)
  return names.length > before.fieldNames.length && before.fieldNames.every((name) => names.includes(name))
}

const percentile = (values, p) => {
  if (values.length === 0) return null
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]
}

/** The totals, as figures (for --json) and as printed lines. */
export function summarize(results) {
  const count = (list, test) => list.filter(test).length
  const tried = results.filter((r) => !r.skipped)
  const accepted = tried.filter((r) => r.accepted)
  const refused = tried.filter((r) => r.accepted === false)
  // A refusal is expected when qpdf cannot open the file either, or it needs a password.
  const expected = (r) =>
    r.original.qpdf === 2 || r.original.qpdf === 'crashed' || r.original.needsPassword === true
  const completed = accepted.filter((r) => r.outcome === 'completed')
  const finals = completed.map((r) => r.final)
  const keptOf = (k) =>
    `${count(finals, (f) => f.kept[k] === true)} of ${count(finals, (f) => f.kept[k] !== null)}`
  const figures = {
    files: results.length,
    skipped: count(results, (r) => r.skipped),
    accepted: accepted.length,
    refused: refused.length,
    refusedExpected: count(refused, expected),
    falseRejections: refused
      .filter((r) => !expected(r))
      .map((r) => `${r.file}: ${r.refusal.code} ${r.refusal.message}`),
    refusedByCode: Object.fromEntries(
      [...new Set(refused.map((r) => r.refusal.code))].map((c) => [
        c,
        count(refused, (r) => r.refusal.code === c),
      ]),
    ),
    serverErrors: count(tried, (r) => r.refusal?.status >= 500),
    completed: completed.length,
    finalizationErrors: count(accepted, (r) => r.outcome === 'finalization_error'),
    timeouts: count(accepted, (r) => r.outcome === 'timeout'),
    otherFailures: count(
      accepted,
      (r) => !['completed', 'finalization_error', 'timeout'].includes(r.outcome),
    ),
    scriptErrors: count(tried, (r) => r.outcome === 'script error'),
    finalOpensInQpdf: count(finals, (f) => f.qpdf === 0 || f.qpdf === 3),
    finalQpdfClean: count(finals, (f) => f.qpdf === 0),
    finalPopplerText: count(finals, (f) => f.popplerText),
    sealValid: count(finals, (f) => f.sealValid),
    sealTotalDocument: count(finals, (f) => f.sealValid && f.sealTotal),
    originalIsPrefix: count(finals, (f) => f.prefix),
    typedValueWhole: count(finals, (f) => f.typedWhole),
    outlinesKept: keptOf('outlines'),
    acroformKept: keptOf('acroform'),
    tagsKept: keptOf('tags'),
    earlierSignaturesValid: keptOf('earlierSignatures'),
    finalsWithNewOrphanWidgets: count(
      completed,
      (r) => r.final.orphanWidgets > (r.original.orphanWidgets ?? 0),
    ),
    auditSealValid: count(finals, (f) => f.audit?.sealValid),
    secondsPerFile: {
      p50: percentile(
        completed.map((r) => r.seconds),
        50,
      ),
      max: percentile(
        completed.map((r) => r.seconds),
        100,
      ),
    },
    finalizeSeconds: {
      p50: percentile(
        completed.map((r) => r.finalizeSeconds),
        50,
      ),
      max: percentile(
        completed.map((r) => r.finalizeSeconds),
        100,
      ),
    },
  }
  const n = finals.length
  const s = (v) => (v === null ? '–' : v.toFixed(2))
  const lines = [
    `files ${figures.files} (${figures.skipped} skipped): accepted ${figures.accepted}, refused ${figures.refused} (${figures.refusedExpected} expected: qpdf cannot open them or they need a password), 5xx ${figures.serverErrors}`,
    `refused by code: ${JSON.stringify(figures.refusedByCode)}`,
    ...figures.falseRejections.map((line) => `  false rejection: ${line}`),
    `accepted ${figures.accepted}: completed ${figures.completed}, finalization_error ${figures.finalizationErrors}, timeout ${figures.timeouts}, other ${figures.otherFailures}; script errors ${figures.scriptErrors}`,
    `finals (${n}): open in qpdf ${figures.finalOpensInQpdf} (clean ${figures.finalQpdfClean}), poppler text ${figures.finalPopplerText}, seal valid ${figures.sealValid}, seal valid and total ${figures.sealTotalDocument}`,
    `original a byte prefix ${figures.originalIsPrefix} of ${n}; typed value whole ${figures.typedValueWhole} of ${n}; audit seal valid ${figures.auditSealValid} of ${n}`,
    `kept: outlines ${figures.outlinesKept}, forms ${figures.acroformKept}, StructTreeRoot ${figures.tagsKept}, earlier valid signatures ${figures.earlierSignaturesValid}; finals with widgets /AcroForm no longer reaches ${figures.finalsWithNewOrphanWidgets}`,
    `seconds per file p50 ${s(figures.secondsPerFile.p50)} max ${s(figures.secondsPerFile.max)}; finalization p50 ${s(figures.finalizeSeconds.p50)} max ${s(figures.finalizeSeconds.max)}`,
  ]
  return { figures, lines }
}
