// Submissions created through Paraph's real API: one document, three signature fields
// on page 1, one per role, and three submitters.
import { randomUUID } from 'node:crypto'
import type { RunningServer } from './servers.ts'

export const FROM_PDF_PATH = '/v1/submissions/from_pdf'

/** The PDF inline (base64) or by URL, as the `documents[0]` of the request takes it. */
export type PdfSource = { pdf_base64: string } | { pdf_url: string }

export const inline = (bytes: Uint8Array): PdfSource => ({
  pdf_base64: Buffer.from(bytes).toString('base64'),
})

const ROLES = ['a', 'b', 'c'] as const

export function threeSignerBody(source: PdfSource): Record<string, unknown> {
  const fields = ROLES.map((role, i) => ({
    name: `S${i + 1}`,
    role,
    areas: [{ page: 1, x: 0.1, y: 0.1 + 0.2 * i, w: 0.2, h: 0.05 }],
  }))
  return {
    documents: [{ name: 'Contract', ...source, fields }],
    submitters: ROLES.map((role) => ({ role, email: `${role}@example.eu` })),
  }
}

export function jsonHeaders(server: RunningServer): Record<string, string> {
  return { 'content-type': 'application/json', ...(server.bearer ? { authorization: server.bearer } : {}) }
}

/** POST `body` to `path` once; fails unless Paraph answers 201. Returns the new id. */
async function postForId(server: RunningServer, path: string, body: unknown): Promise<string> {
  const response = await fetch(`${server.process.baseUrl}${path}`, {
    method: 'POST',
    headers: { ...jsonHeaders(server), 'idempotency-key': randomUUID() },
    body: JSON.stringify(body),
  })
  const text = await response.text()
  if (response.status !== 201) {
    throw new Error(`${server.process.name} POST ${path} answered ${response.status}: ${text.slice(0, 200)}`)
  }
  return (JSON.parse(text) as { id: string }).id
}

/** POST /v1/submissions/from_pdf once with three signers; returns the submission's id. */
export function createSubmission(server: RunningServer, source: PdfSource): Promise<string> {
  return postForId(server, FROM_PDF_PATH, threeSignerBody(source))
}

/** POST /v1/templates once with the three signers' fields; returns the template's id. */
export function createTemplate(server: RunningServer, source: PdfSource): Promise<string> {
  const { documents } = threeSignerBody(source)
  return postForId(server, '/v1/templates', { name: 'Contract', documents })
}

/** The body of POST /v1/submissions from a template made by createTemplate. */
export function fromTemplateBody(templateId: string): Record<string, unknown> {
  return { template_id: templateId, submitters: ROLES.map((role) => ({ role, email: `${role}@example.eu` })) }
}
