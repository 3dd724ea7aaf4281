// Submissions signed to the end through Paraph's real signer interface: three signers,
// each with a signature image and a text value on page 1, signing in order over `POST /s/{slug}/sign`.
import { randomUUID } from 'node:crypto'
import { performance } from 'node:perf_hooks'
import { dataUrl, strokePng } from '../test/fixtures/png.ts'
import type { RunningServer } from './servers.ts'
import { FROM_PDF_PATH, jsonHeaders, type PdfSource } from './submissions.ts'

/** The signature every signer draws: the same 300 × 100 stroke the signing tests use. */
export const SIGNATURE_PNG = strokePng(300, 100)
const SIGNATURE = dataUrl(SIGNATURE_PNG)

const ROLES = ['a', 'b', 'c'] as const
const area = (i: number, x: number) => ({ page: 1, x, y: 0.1 + 0.2 * i, w: 0.3, h: 0.06 })

/** `group`: the first role is a signer group of two people (docs/api.md#signer-groups). */
export function signingBody(source: PdfSource, { group = false } = {}): Record<string, unknown> {
  const fields = ROLES.flatMap((role, i) => [
    { name: `S${i + 1}`, type: 'signature', role, areas: [area(i, 0.1)] },
    { name: `T${i + 1}`, type: 'text', role, areas: [area(i, 0.5)] },
  ])
  const submitters = ROLES.map((role, i) =>
    group && i === 0
      ? {
          role,
          name: 'The As',
          members: [{ email: `${role}1@example.eu` }, { email: `${role}2@example.eu` }],
        }
      : { role, email: `${role}@example.eu`, name: role.toUpperCase() },
  )
  return { documents: [{ name: 'Contract', ...source, fields }], submitters }
}

/** What signer `i` (0, 1, 2) sends: a signature image and a text value. */
export function signerValues(i: number): Record<string, string> {
  return { [`S${i + 1}`]: SIGNATURE, [`T${i + 1}`]: `Signer number ${i + 1}, Łukasz Żółć` }
}

/** The text each signer stamps, for the floor: what signerValues puts in its text field. */
export const SIGNER_TEXTS = [0, 1, 2].map((i) => signerValues(i)[`T${i + 1}`]!)

export interface ToSign {
  id: string
  /** The signers' slugs, in signing order (a signer group's: its first member's). */
  slugs: string[]
}

interface CreatedSigner {
  signing_url: string | null
  members?: Array<{ signing_url: string }>
}

/**
 * POST /v1/submissions/from_pdf once; the submission's id and its signers' slugs. `group`: the first
 * signer is a group of two, whose first member's slug stands for it.
 */
export async function createToSign(
  server: RunningServer,
  source: PdfSource,
  { group = false } = {},
): Promise<ToSign> {
  const response = await fetch(`${server.process.baseUrl}${FROM_PDF_PATH}`, {
    method: 'POST',
    headers: { ...jsonHeaders(server), 'idempotency-key': randomUUID() },
    body: JSON.stringify(signingBody(source, { group })),
  })
  const text = await response.text()
  if (response.status !== 201) throw new Error(`from_pdf answered ${response.status}: ${text.slice(0, 200)}`)
  const created = JSON.parse(text) as { id: string; submitters: CreatedSigner[] }
  const slugs = created.submitters.map(
    (s) => new URL(s.signing_url ?? s.members![0]!.signing_url).pathname.split('/').pop()!,
  )
  return { id: created.id, slugs }
}

/** The body of signer `i`'s sign request, serialized once. */
export const signBody = (i: number) => JSON.stringify({ values: signerValues(i) })

/** POST /s/{slug}/sign; fails unless Paraph answers 200. Returns the round trip in milliseconds. */
export async function sign(server: RunningServer, slug: string, body: string): Promise<number> {
  const started = performance.now()
  const response = await fetch(`${server.process.baseUrl}/s/${slug}/sign`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': 'ParaphBench/1.0' },
    body,
  })
  const text = await response.text()
  const elapsed = performance.now() - started
  if (response.status !== 200) throw new Error(`sign answered ${response.status}: ${text.slice(0, 200)}`)
  return elapsed
}

/** GET /v1/submissions/{id}: its status and completed_at. */
export async function submissionState(
  server: RunningServer,
  id: string,
): Promise<{ status: string; completed_at: string | null }> {
  const response = await fetch(`${server.process.baseUrl}/v1/submissions/${id}`, {
    headers: jsonHeaders(server),
  })
  const text = await response.text()
  if (response.status !== 200)
    throw new Error(`GET submission answered ${response.status}: ${text.slice(0, 200)}`)
  return JSON.parse(text) as { status: string; completed_at: string | null }
}
