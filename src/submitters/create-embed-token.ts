// POST /v1/submitters/{id}/embed_token — docs/api.md#embed-tokens: a new embed URL for a submitter,
// valid as long as the caller chooses (60 s to 30 days; 1 hour by default: mint one when your page
// loads). Nothing is stored — the token is an HS256 JWT naming the submitter and its submission —
// so the answer is 200, not 201, and earlier tokens (the creation's `embed_src` among them) stay
// valid until their own expiry. A token for a signer who finished, or of a submission that ended,
// still opens the form, which shows that state. 500 `token_issue_failed` if it cannot be signed. An
// optional `allowed_origin` rides in the token: the embed page posts its messages to it alone.
import { Type } from 'typebox'
import type { Executor, SubmittersTable } from '../db/tables.ts'
import { ApiError, fieldError, orNotFound } from '../errors.ts'
import { Id, IdParams, Timestamp } from '../http/common-schemas.ts'
import { defineRoute } from '../http/define-route.ts'
import { parseAllowedOrigin } from '../signing-page/embed-origin.ts'
import { findMemberOfSubmitter } from '../submissions/group-member-store.ts'
import { embedUrl, issueEmbedToken } from '../submissions/signing-credentials.ts'
import { findSubmitter } from '../submissions/submission-store.ts'

export const EMBED_TOKEN_TTL = { min: 60, max: 30 * 24 * 60 * 60, default: 60 * 60 } as const

const EmbedTokenRequest = Type.Object(
  {
    ttl_seconds: Type.Optional(
      Type.Integer({
        minimum: EMBED_TOKEN_TTL.min,
        maximum: EMBED_TOKEN_TTL.max,
        default: EMBED_TOKEN_TTL.default,
        description: 'Lifetime of the token in seconds: 60 to 2592000 (30 days); default 3600 (1 hour)',
      }),
    ),
    member_id: Type.Optional(
      Id(
        'grm',
        'For a signer group (docs/api.md#signer-groups): the member the page is for (`members[].id`); required for a group, refused for any other signer',
      ),
    ),
    allowed_origin: Type.Optional(
      Type.String({
        // A host name is at most 253 characters; with a scheme and a port an origin stays well inside.
        maxLength: 300,
        description:
          'The origin of the page that frames `embed_src`: `https://host[:port]` (or `http://localhost[:port]`, `http://127.0.0.1[:port]` for development), no path. The embedded page posts its `paraph:opened`, `paraph:signed` and `paraph:declined` messages to this origin only. Without it, they go to the origin of the `Referer` the framing page sent when it loaded `embed_src` (browsers send the origin cross-site by default), and to no one when there is none (a framing page with `referrerpolicy="no-referrer"` then hears nothing: give `allowed_origin`). Anything else: 422 `invalid_request`.',
      }),
    ),
  },
  { additionalProperties: false, title: 'EmbedTokenRequest' },
)

const EmbedToken = Type.Object(
  {
    object: Type.Literal('embed_token'),
    submitter_id: Id('sbm'),
    submission_id: Id('sub'),
    member_id: Type.Optional(Id('grm', 'The signer group member the token is for, when it is one')),
    embed_src: Type.String({
      description:
        '`{SIGNING_URL}/embed/{jwt}`: the signing page to frame in your application; its JWT is the credential, so treat the URL as a secret',
    }),
    expires_at: {
      ...Timestamp,
      description: 'When the token stops working (401 `invalid_signing_token`), to the second',
    },
  },
  { title: 'EmbedToken' },
)

export const createEmbedToken = defineRoute({
  operationId: 'createEmbedToken',
  method: 'POST',
  url: '/v1/submitters/:id/embed_token',
  summary: 'Issue a new embed URL with a chosen lifetime',
  description:
    'Answers 200: nothing is stored, and earlier tokens are not revoked. Works for any submitter of the key’s scope, whatever its status: the embedded form shows an ended submission’s state. Send `{}` for the default lifetime (a request without a body is 422). Messages to the framing page: the embedded page posts `paraph:opened`, `paraph:signed` and `paraph:declined` (`{ type, submitter_id, submission_id }`) to `allowed_origin` when the token carries one, else to the origin of the `Referer` of the request that loaded the page, never to `*`; the creation response’s `embed_src` carries no `allowed_origin`.',
  tag: 'Submitters',
  schema: { params: IdParams('sbm'), body: EmbedTokenRequest, response: { 200: EmbedToken } },
  errors: ['resource_not_found', 'token_issue_failed', 'invalid_request'],
  handler: async ({ params, body, scope }, deps) => {
    const allowedOrigin =
      body.allowed_origin === undefined ? undefined : parseAllowedOrigin(body.allowed_origin)
    const submitter = orNotFound(await findSubmitter(deps.db, scope, params.id), `submitter ${params.id}`)
    const member = await memberOfRequest(deps.db, submitter, body.member_id)
    const now = deps.clock.now()
    const ttl = body.ttl_seconds ?? EMBED_TOKEN_TTL.default
    // The JWT counts whole seconds: the answer states the second the token really lapses.
    const expiresAt = new Date(Math.floor(now.getTime() / 1000 + ttl) * 1000)
    let token: string
    try {
      const claims = {
        sub: submitter.id,
        sid: submitter.submission_id,
        ...(member ? { mbr: member.id } : {}),
        ...(allowedOrigin ? { allowed_origin: allowedOrigin } : {}),
      }
      token = await issueEmbedToken(deps.keys.embed, claims, expiresAt, now)
    } catch (error) {
      throw new ApiError('token_issue_failed', 'The embed token could not be issued; retry.', {}, error)
    }
    return {
      object: 'embed_token' as const,
      submitter_id: submitter.id,
      submission_id: submitter.submission_id,
      ...(member ? { member_id: member.id } : {}),
      embed_src: embedUrl(deps.config.signingUrl, token),
      expires_at: expiresAt.toISOString(),
    }
  },
})

/** docs/api.md#signer-groups: a group's token names one of its members; any other signer's, none. */
async function memberOfRequest(db: Executor, submitter: SubmittersTable, memberId: string | undefined) {
  if (submitter.grouped !== 1) {
    if (memberId === undefined) return null
    throw fieldError(
      'invalid_request',
      'member_id',
      'this submitter is no signer group; leave member_id out.',
    )
  }
  if (memberId === undefined) {
    throw fieldError(
      'invalid_request',
      'member_id',
      'is required: this submitter is a signer group; name the member the page is for (one of its `members[].id`).',
    )
  }
  const member = await findMemberOfSubmitter(db, submitter, memberId)
  if (!member)
    throw fieldError('invalid_request', 'member_id', `${memberId} is no member of this signer group.`)
  return member
}
