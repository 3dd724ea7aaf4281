// docs/api.md#the-signers-form: every signer route exists twice, under `/s/{slug}` (the signing
// URL) and under `/embed/{jwt}` (the embed URL). One definition makes both: the credential is
// resolved to the submitter here, and the handler never knows which form was used except as `via`.
import { type Static, type TSchema, Type } from 'typebox'
import type { GroupMembersTable, SubmittersTable } from '../db/tables.ts'
import type { Deps } from '../deps.ts'
import { ApiError, type ErrorCode } from '../errors.ts'
import {
  type AnyRoute,
  defineRoute,
  type ExtraParameter,
  type HandlerInput,
  type HttpMethod,
} from '../http/define-route.ts'
import { findMemberBySlug, findMemberOfSubmitter } from '../submissions/group-member-store.ts'
import { actingAs } from '../submissions/signer-groups.ts'
import { verifyEmbedToken } from '../submissions/signing-credentials.ts'
import { findSubmitterById, findSubmitterBySlug } from '../submissions/submission-store.ts'
import { presentedSessions, SESSION_COOKIE, SESSION_HEADER } from './email-code-session.ts'
import { refuseIfPurged } from './purged-link.ts'

export interface Signer {
  /** The submitter, as the member acts for it when the link is a group member's (signer-groups.ts actingAs). */
  submitter: SubmittersTable
  /** docs/api.md#signer-groups: the member of a signer group whose link this is; null for any other signer. */
  member: GroupMembersTable | null
  via: 'link' | 'embed'
  /** The credential's path, `/s/{slug}` or `/embed/{jwt}`: the signer's session cookie is scoped to it. */
  path: string
  /** Session values the request presents (email-code-session.ts), checked against the signer as read. */
  sessions: string[]
}

const unknownLink = () => new ApiError('resource_not_found', 'This signing link does not exist.')

export const SlugParams = Type.Object(
  { slug: Type.String({ minLength: 1, maxLength: 4096 }) },
  { additionalProperties: false },
)
export const TokenParams = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 4096 }) },
  { additionalProperties: false },
)

/** Slugs are base62 (submissions/signing-credentials.ts): anything else names no signer, and is not looked up. */
const SLUG_SHAPE = /^[A-Za-z0-9]{1,64}$/

type Resolved = Omit<Signer, 'sessions'>

/**
 * A slug names a signer, or a member of a signer group (docs/api.md#signer-groups). A group's own
 * slug names no one: only its members' links sign for it. The link of a purged submission is 410
 * `submission_purged` (purged-link.ts), for every route that resolves a signer.
 */
export async function bySlug(deps: Deps, slug: string): Promise<Resolved> {
  const resolved = await slugSigner(deps, slug)
  await refuseIfPurged(deps.db, resolved.submitter)
  return resolved
}

async function slugSigner(deps: Deps, slug: string): Promise<Resolved> {
  if (!SLUG_SHAPE.test(slug)) throw unknownLink()
  const path = `/s/${slug}`
  const submitter = await findSubmitterBySlug(deps.db, slug)
  if (submitter) {
    if (submitter.grouped === 1) throw unknownLink()
    return { submitter, member: null, via: 'link', path }
  }
  const member = await findMemberBySlug(deps.db, slug)
  const group = member && (await findSubmitterById(deps.db, member.submitter_id, member.submission_id))
  if (!member || !group) throw unknownLink()
  return { submitter: actingAs(group, member), member, via: 'link', path }
}

/** A token names a signer, or (claim `mbr`) a member of a signer group; never a group itself. */
export async function byToken(deps: Deps, token: string): Promise<Resolved> {
  const resolved = await tokenSigner(deps, token)
  await refuseIfPurged(deps.db, resolved.submitter)
  return resolved
}

async function tokenSigner(deps: Deps, token: string): Promise<Resolved> {
  const claims = await verifyEmbedToken(deps.keys.embed, token, deps.clock.now())
  const submitter = await findSubmitterById(deps.db, claims.sub, claims.sid)
  const path = `/embed/${token}`
  if (!submitter || (submitter.grouped === 1) !== (claims.mbr !== undefined)) throw unknownLink()
  if (claims.mbr === undefined) return { submitter, member: null, via: 'embed', path }
  const member = await findMemberOfSubmitter(deps.db, submitter, claims.mbr)
  if (!member) throw unknownLink()
  return { submitter: actingAs(submitter, member), member, via: 'embed', path }
}

/** How a signer who verified an e-mail code proves it (docs/api.md#e-mail-code-2fa; email-code-session.ts). */
const SESSION_PARAMETERS: ExtraParameter[] = [
  {
    in: 'header',
    name: SESSION_HEADER,
    description:
      'The `session` of the `email_2fa/verify` answer, for a signer asked for an e-mail code. An embedded page (framed cross-site, where the cookie is not sent) keeps it in memory and sends it with every call.',
  },
  {
    in: 'cookie',
    name: SESSION_COOKIE,
    description:
      'The same session, set by `email_2fa/verify` (HttpOnly, SameSite=Lax, Secure over https, path of the signing link).',
  },
]

export interface SignerRouteSpec<B extends TSchema | undefined, R extends TSchema> {
  /** operationId of the `/s/` route; the embed route gets `Embed` inserted after the verb. */
  operationIds: [string, string]
  method: HttpMethod
  /** Path after the credential: `form`, `open`, `sign`, `decline`. */
  action: string
  summary: string
  description?: string
  body?: B
  response: R
  bodyLimit?: number
  errors: ErrorCode[]
  /** Headers of the success response (name → description), for the OpenAPI document. */
  responseHeaders?: Record<string, string>
  /** Headers the handler reads beyond the session's, for the OpenAPI document. */
  extraParameters?: ExtraParameter[]
  handler(
    input: HandlerInput<{ body: B; response: { 200: R } }>,
    signer: Signer,
    deps: Deps,
  ): Promise<Static<R>>
}

/** The `/s/{slug}/…` and `/embed/{jwt}/…` routes of one signer action. */
export function defineSignerRoutes<B extends TSchema | undefined, R extends TSchema>(
  spec: SignerRouteSpec<B, R>,
): [AnyRoute, AnyRoute] {
  const common = {
    method: spec.method,
    tag: 'Signing page',
    auth: 'none' as const,
    perIpLimit: true,
    extraParameters: [...SESSION_PARAMETERS, ...(spec.extraParameters ?? [])],
    ...(spec.description ? { description: spec.description } : {}),
    ...(spec.responseHeaders ? { responseHeaders: spec.responseHeaders } : {}),
    ...(spec.bodyLimit ? { bodyLimit: spec.bodyLimit } : {}),
  }
  const schema = (params: TSchema) => ({
    params,
    ...(spec.body ? { body: spec.body } : {}),
    response: { 200: spec.response },
  })
  // biome-ignore lint/suspicious/noExplicitAny: both routes share the handler whatever their params
  const run = (resolve: (deps: Deps, input: any) => Promise<Resolved>) => async (input: any, deps: Deps) =>
    spec.handler(input, { ...(await resolve(deps, input)), sessions: presentedSessions(input.headers) }, deps)
  return [
    defineRoute({
      ...common,
      operationId: spec.operationIds[0],
      url: `/s/:slug/${spec.action}`,
      summary: `${spec.summary}, by signing-URL slug`,
      schema: schema(SlugParams),
      errors: ['resource_not_found', 'submission_purged', ...spec.errors],
      handler: run((deps, input) => bySlug(deps, input.params.slug)),
    }),
    defineRoute({
      ...common,
      operationId: spec.operationIds[1],
      url: `/embed/:token/${spec.action}`,
      summary: `${spec.summary}, by embed token`,
      schema: schema(TokenParams),
      errors: ['invalid_signing_token', 'resource_not_found', 'submission_purged', ...spec.errors],
      handler: run((deps, input) => byToken(deps, input.params.token)),
    }),
  ]
}
