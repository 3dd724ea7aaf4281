// Request bodies and calls shared by the document and submission tests.
import type { LightMyRequestResponse } from 'fastify'
import { randomBase62 } from '../src/lib/ids.ts'
import { a4 } from './fixtures/pdfs.ts'
import { type TestApp, whatHappened } from './harness.ts'

export const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64')

/** One A4 document with a signature field for role `signer`, and one submitter of that role. */
export async function fromPdfBody(overrides: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  return {
    documents: [
      {
        name: 'Contract',
        pdf_base64: base64(await a4()),
        fields: [
          {
            name: 'Signature',
            type: 'signature',
            role: 'signer',
            areas: [{ page: 1, x: 0.6, y: 0.85, w: 0.3, h: 0.05 }],
          },
        ],
      },
    ],
    submitters: [{ role: 'signer', email: 'ann@example.eu', name: 'Ann' }],
    ...overrides,
  }
}

export function post(
  t: TestApp,
  key: string,
  url: string,
  body: unknown,
  idempotencyKey = randomBase62(16),
): Promise<LightMyRequestResponse> {
  return t.request(key, {
    method: 'POST',
    url,
    payload: JSON.stringify(body),
    headers: { 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
  })
}

/** A template with one A4 page, fields for `first` and `second`; returns its id. */
export async function createTemplateFor(
  t: TestApp,
  key: string,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const res = await post(t, key, '/v1/templates', {
    name: 'NDA',
    documents: [
      {
        pdf_base64: base64(await a4()),
        fields: [
          { name: 'First signature', role: 'first', areas: [{ page: 1, x: 0.1, y: 0.8, w: 0.3, h: 0.05 }] },
          {
            name: 'First name',
            type: 'text',
            role: 'first',
            required: false,
            areas: [{ page: 1, x: 0.1, y: 0.7, w: 0.3, h: 0.05 }],
          },
          { name: 'Second signature', role: 'second', areas: [{ page: 1, x: 0.6, y: 0.8, w: 0.3, h: 0.05 }] },
        ],
      },
    ],
    ...extra,
  })
  if (res.statusCode !== 201) throw new Error(`template creation failed: ${whatHappened(t, res)}`)
  return res.json().id
}

/** A signature field of role `signer` with the given areas. */
export function signerField(areas: unknown[], extra: Record<string, unknown> = {}) {
  return { name: 'Sig', role: 'signer', areas, ...extra }
}
