// GET /files/current/{grant} — the signer's document as it stands, behind the
// `current_pdf_url` of their form (current-pdf-grant.ts). Unlike a signed file URL, every download
// reads the submission: a cancelled, expired or declined one answers 410 at once
// (docs/signing.md#when-a-request-is-taken-back), and the PDF always shows the values as they are
// now.
import type { Readable } from 'node:stream'
import { Type } from 'typebox'
import type { Deps } from '../deps.ts'
import { ApiError } from '../errors.ts'
import { defineRoute } from '../http/define-route.ts'
import { attachmentDisposition } from '../lib/content-disposition.ts'
import { findMemberOfSubmitter } from '../submissions/group-member-store.ts'
import { actingAs } from '../submissions/signer-groups.ts'
import { findSubmitterById } from '../submissions/submission-store.ts'
import { ensureCurrentPdf } from './current-pdf.ts'
import { grantUnlocks, parseCurrentPdfGrant } from './current-pdf-grant.ts'
import { refuseIfPurged } from './purged-link.ts'
import { endedError, hasEnded } from './signer-state.ts'
import { signerView } from './signer-view.ts'
import { visibleValues } from './visible-values.ts'

const invalidLink = (why: string) =>
  new ApiError('invalid_file_url', `This download link ${why}; reload the signing page for a fresh one.`)

async function grantedSigner(deps: Deps, text: string) {
  const grant = parseCurrentPdfGrant(text)
  if (!grant) throw invalidLink('is not valid')
  const now = deps.clock.now()
  if (grant.exp * 1000 <= now.getTime()) throw invalidLink('has expired (links are valid 1 hour)')
  const submitter = await findSubmitterById(deps.db, grant.submitterId, grant.submissionId)
  // docs/api.md#signer-groups: a member's grant names the member, whose address its HMAC covers.
  const member =
    submitter && grant.memberId ? await findMemberOfSubmitter(deps.db, submitter, grant.memberId) : null
  if (!submitter || (grant.memberId !== null && !member)) throw invalidLink('is not valid')
  const holder = { ...actingAs(submitter, member ?? null), member_id: member?.id ?? null }
  // Before the grant's check: that check covers the signer's address, which the purge emptied.
  await refuseIfPurged(deps.db, submitter)
  if (!grantUnlocks(deps.keys.signerSession, grant, holder, now)) throw invalidLink('is not valid')
  return { submitter, member: member ?? null }
}

export const getCurrentPdf = defineRoute({
  operationId: 'getCurrentPdf',
  method: 'GET',
  url: '/files/current/:grant',
  summary: "A signer's document as it stands",
  description:
    "The URL is the signing form's `current_pdf_url`, valid 1 hour: every document of the submission with the values this signer sees drawn on it, not sealed. Made on the first download of each version of the values, then kept. 410 `submission_not_active` once the submission is cancelled, expired or declined; 410 `submission_purged` once it is purged.",
  tag: 'Signing page',
  auth: 'none',
  // RATE_LIMIT_SIGNER: the costliest of the signer's downloads (a PDF made on first request).
  perIpLimit: true,
  produces: 'application/pdf',
  schema: {
    params: Type.Object(
      { grant: Type.String({ minLength: 1, maxLength: 512 }) },
      { additionalProperties: false },
    ),
    response: { 200: Type.Unsafe<Readable>({ type: 'string', contentMediaType: 'application/pdf' }) },
  },
  errors: [
    'invalid_file_url',
    'submission_not_active',
    'submission_purged',
    'resource_not_found',
    'current_pdf_failed',
    'current_pdf_busy',
  ],
  handler: async ({ params, reply }, deps) => {
    // What it shows changes with every signature and ends with the submission: never kept by a cache.
    reply.header('cache-control', 'no-store')
    const { submitter, member } = await grantedSigner(deps, params.grant)
    // The grant was issued to a verified session (or to a signer asked for no code).
    const { submission, template, everyone, state, me } = await signerView(
      deps,
      submitter,
      member,
      () => true,
    )
    if (hasEnded(state)) throw endedError(state)
    const visible = visibleValues(template.fields, me, everyone)
    const pdf = await ensureCurrentPdf(deps, submission, template, visible)
    const stream = await deps.blobs.stream(pdf.key)
    if (!stream) throw new ApiError('resource_not_found', 'This file no longer exists; try again.')
    reply.header('content-type', 'application/pdf')
    reply.header('content-disposition', attachmentDisposition(pdf.name))
    return stream
  },
})
