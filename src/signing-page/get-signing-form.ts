// GET /s/{slug}/form and GET /embed/{jwt}/form — operations.md §3: the signer's view, read-only.
import { Type } from 'typebox'
import { ApiError } from '../errors.ts'
import { defineRoute } from '../http/define-route.ts'
import { findSubmitterById, findSubmitterBySlug } from '../submissions/submission-store.ts'
import { verifyEmbedToken } from './signing-credentials.ts'
import { SigningForm, signingForm } from './signing-form.ts'

const unknownLink = () => new ApiError('resource_not_found', 'This signing link does not exist.')

export const getSigningForm = defineRoute({
  operationId: 'getSigningForm',
  method: 'GET',
  url: '/s/:slug/form',
  summary: "The signing page's data, by signing-URL slug",
  tag: 'Signing page',
  auth: 'none',
  schema: {
    params: Type.Object(
      { slug: Type.String({ minLength: 1, maxLength: 4096 }) },
      { additionalProperties: false },
    ),
    response: { 200: SigningForm },
  },
  errors: ['resource_not_found'],
  handler: async ({ params }, deps) => {
    const submitter = await findSubmitterBySlug(deps.db, params.slug)
    if (!submitter) throw unknownLink()
    return signingForm(deps, submitter)
  },
})

export const getEmbedSigningForm = defineRoute({
  operationId: 'getEmbedSigningForm',
  method: 'GET',
  url: '/embed/:token/form',
  summary: "The signing page's data, by embed token",
  tag: 'Signing page',
  auth: 'none',
  schema: {
    params: Type.Object(
      { token: Type.String({ minLength: 1, maxLength: 4096 }) },
      { additionalProperties: false },
    ),
    response: { 200: SigningForm },
  },
  errors: ['invalid_signing_token', 'resource_not_found'],
  handler: async ({ params }, deps) => {
    const claims = await verifyEmbedToken(deps.keys.embed, params.token, deps.clock.now())
    const submitter = await findSubmitterById(deps.db, claims.sub, claims.sid)
    if (!submitter) throw unknownLink()
    return signingForm(deps, submitter)
  },
})
