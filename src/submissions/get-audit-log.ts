// GET /v1/submissions/{id}/audit_log (docs/api.md#completion) and its machine-readable twin
// GET /v1/submissions/{id}/audit_log.json (a backward-compatible addition, docs/api.md#versioning):
// the audit trail drawn up and sealed when the submission completed, stored, and served as stored,
// so its bytes never change. 404 submission_not_completed before.
import type { Readable } from 'node:stream'
import { Type } from 'typebox'
import type { Scope } from '../db/tables.ts'
import type { Deps } from '../deps.ts'
import { ApiError, orNotFound } from '../errors.ts'
import { IdParams } from '../http/common-schemas.ts'
import { defineRoute } from '../http/define-route.ts'
import { attachmentDisposition } from '../lib/content-disposition.ts'
import { AuditRecord } from '../pdf/audit/audit-record.ts'
import { refusePurged } from './purged-refusal.ts'
import { findSubmission } from './submission-store.ts'

async function storedAuditTrail(
  deps: Deps,
  scope: Scope,
  id: string,
  which: 'audit_pdf_key' | 'audit_json_key',
) {
  const submission = orNotFound(await findSubmission(deps.db, scope, id), `submission ${id}`)
  refusePurged(submission)
  const key = submission[which]
  if (submission.status !== 'completed' || !key) {
    throw new ApiError(
      'submission_not_completed',
      `Submission ${id} is ${submission.status}; its audit trail exists once it is completed.`,
    )
  }
  const stream = await deps.blobs.stream(key)
  if (!stream)
    throw new ApiError(
      'internal_inconsistency',
      `The audit trail of submission ${id} is missing from storage.`,
    )
  return stream
}

export const getAuditLog = defineRoute({
  operationId: 'getAuditLog',
  method: 'GET',
  url: '/v1/submissions/:id/audit_log',
  summary: 'Download the audit trail (PDF)',
  description:
    'Made and sealed (PAdES) when the submission completed: documents with their SHA-256 as sent and of the final PDF, each signer’s acts with time, IP address and user agent, the consent shown, and every event in UTC with milliseconds.',
  tag: 'Submissions',
  produces: 'application/pdf',
  schema: {
    params: IdParams('sub'),
    response: { 200: Type.Unsafe<Readable>({ type: 'string', contentMediaType: 'application/pdf' }) },
  },
  errors: ['resource_not_found', 'submission_not_completed', 'submission_purged', 'internal_inconsistency'],
  handler: async ({ params, scope, reply }, deps) => {
    const stream = await storedAuditTrail(deps, scope, params.id, 'audit_pdf_key')
    reply.header('content-disposition', attachmentDisposition(`audit-trail-${params.id}.pdf`))
    return stream
  },
})

export const getAuditLogJson = defineRoute({
  operationId: 'getAuditLogJson',
  method: 'GET',
  url: '/v1/submissions/:id/audit_log.json',
  summary: 'Get the audit trail as JSON',
  description:
    'The same record the audit PDF shows, stored at completion; `final_pdf.sha256` equals the SHA-256 of the file `signed_pdf_url` serves.',
  tag: 'Submissions',
  schema: { params: IdParams('sub'), response: { 200: AuditRecord } },
  errors: ['resource_not_found', 'submission_not_completed', 'submission_purged', 'internal_inconsistency'],
  handler: async ({ params, scope }, deps) => {
    const stream = await storedAuditTrail(deps, scope, params.id, 'audit_json_key')
    const chunks: Buffer[] = []
    for await (const chunk of stream) chunks.push(chunk as Buffer)
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as AuditRecord
  },
})
