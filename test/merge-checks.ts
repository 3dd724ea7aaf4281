// What the merge tests (src/pdf/merge/merge-*.test.ts) share: merging as the finalizer will, and reading
// the result with qpdf and poppler, never with the engine that wrote it.
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { mergeDocuments } from '../src/pdf/merge/merge-documents.ts'
import { openPdf } from '../src/pdf/read/mupdf-open.ts'
import { pdftotext, qpdfCheck } from './pdf-checks.ts'

const execFileAsync = promisify(execFile)

export interface Input {
  name: string
  bytes: Uint8Array
}

/**
 * Merges as the finalizer will: open each with openPdf, merge into the first, free the others (what
 * the merge took from them is copied), save incrementally.
 */
export function merge(inputs: Input[]) {
  const [base, ...others] = inputs.map(({ name, bytes }) => ({ name, doc: openPdf(bytes).doc }))
  const result = mergeDocuments(base!, others)
  for (const other of others) other.doc.destroy()
  const merged = base!.doc.saveToBuffer('incremental').asUint8Array().slice()
  return { ...result, merged }
}

/**
 * qpdf --check passes without a warning (exit 0), and so does qpdf reading the form and outlines
 * (where it says "this widget annotation is not reachable from /AcroForm", or finds a loop).
 */
export async function assertClean(pdf: Uint8Array): Promise<void> {
  const check = await qpdfCheck(pdf)
  assert.equal(check.code, 0, check.output)
  assert.doesNotMatch(check.output, /WARNING/)
  const { stderr } = await qpdf(pdf, ['--json=2', '--json-key=acroform', '--json-key=outlines'])
  assert.equal(stderr, '', 'qpdf reading the form and outlines')
}

export const qpdf = (pdf: Uint8Array, args: string[]) => runOn('qpdf', pdf, args)

/** AES-256 with an empty user password: every viewer opens it without asking. */
export async function encrypt(pdf: Uint8Array): Promise<Uint8Array> {
  const dir = await mkdtemp(join(tmpdir(), 'paraph-merge-'))
  try {
    await writeFile(join(dir, 'in.pdf'), pdf)
    await execFileAsync('qpdf', [
      '--encrypt',
      '',
      'owner',
      '256',
      '--',
      join(dir, 'in.pdf'),
      join(dir, 'out.pdf'),
    ])
    return new Uint8Array(await readFile(join(dir, 'out.pdf')))
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}
export const poppler = async (tool: string, pdf: Uint8Array, args: string[]) =>
  (await runOn(tool, pdf, args)).stdout

/** `tool` with `args`, then the path of `pdf` written to a private file. */
async function runOn(
  tool: string,
  pdf: Uint8Array,
  args: string[],
): Promise<{ stdout: string; stderr: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'paraph-merge-'))
  try {
    await writeFile(join(dir, 'in.pdf'), pdf)
    return await execFileAsync(tool, [...args, join(dir, 'in.pdf')], { maxBuffer: 64 * 1024 * 1024 })
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

export const pageTexts = async (pdf: Uint8Array) =>
  (await pdftotext(pdf))
    .split('\f')
    .map((text) => text.trim())
    .filter(Boolean)
