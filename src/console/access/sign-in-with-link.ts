// GET and POST /console/sign-in/{token} — a mailed sign-in link. GET shows a page with one button
// and consumes nothing (mail scanners follow links); POST consumes the link, opens a session in
// the test environment, sets the cookie and sends the browser to the console (docs/console.md).
import { Type } from 'typebox'
import { ApiError } from '../../errors.ts'
import { defineRoute, type HandlerInput } from '../../http/define-route.ts'
import { toIso } from '../../lib/clock.ts'
import { consoleAssets } from '../shell/console-assets.ts'
import { CONSOLE_NO_STORE_HEADERS } from '../shell/console-headers.ts'
import { originAllowed, sessionCookie } from './console-auth.ts'
import { insertSession, SESSION_MAX_MS } from './console-session-store.ts'
import { consumeSignInLink, findSignInLink } from './sign-in-link-store.ts'
import { pageLanguage, type SignInProblem, signInPage, signInProblemPage } from './sign-in-page.ts'

const TOKEN = /^[0-9A-Za-z]{43}$/
const STATUS: Record<SignInProblem, number> = { spent: 410, unknown: 404, refused: 403 }

const schema = {
  params: Type.Object({ token: Type.String({ maxLength: 200 }) }, { additionalProperties: false }),
  response: { 200: Type.String() },
}

type Input = HandlerInput<typeof schema>

const wantsHtml = (accept: string | undefined) => /\btext\/html\b/i.test(accept ?? '')

const PROGRAM_ERRORS: Record<SignInProblem, () => ApiError> = {
  spent: () => new ApiError('sign_in_link_expired', 'This sign-in link has expired or was already used.'),
  unknown: () => new ApiError('resource_not_found', 'No such sign-in link.'),
  refused: () => new ApiError('csrf_token_invalid', 'Sign-in forms are accepted from the console only.'),
}

/** A person (Accept: text/html) gets a page with the status; a program, the usual envelope. */
async function problem(input: Input, kind: SignInProblem): Promise<string> {
  if (!wantsHtml(input.headers.accept)) throw PROGRAM_ERRORS[kind]()
  input.reply.code(STATUS[kind])
  const { stylesheet } = await consoleAssets()
  return signInProblemPage(pageLanguage(input.headers['accept-language']), stylesheet, kind)
}

export const getSignInPage = defineRoute({
  operationId: 'getSignInPage',
  method: 'GET',
  url: '/console/sign-in/:token',
  summary: 'The page of a console sign-in link',
  tag: 'Console',
  auth: 'none',
  headers: CONSOLE_NO_STORE_HEADERS,
  produces: 'text/html; charset=utf-8',
  schema,
  errors: ['resource_not_found', 'sign_in_link_expired'],
  handler: async (input, { db, clock }) => {
    const token = input.params.token
    const found = TOKEN.test(token) ? await findSignInLink(db, clock, token) : { state: 'unknown' as const }
    if (found.state !== 'usable') return problem(input, found.state)
    return signInPage(
      pageLanguage(input.headers['accept-language']),
      (await consoleAssets()).stylesheet,
      found.link.account_name,
      `/console/sign-in/${token}`,
    )
  },
})

export const signInWithLink = defineRoute({
  operationId: 'signInWithLink',
  method: 'POST',
  url: '/console/sign-in/:token',
  summary: 'Sign in to the console with a link',
  tag: 'Console',
  auth: 'none',
  headers: CONSOLE_NO_STORE_HEADERS,
  produces: 'text/html; charset=utf-8',
  schema,
  errors: ['resource_not_found', 'sign_in_link_expired', 'csrf_token_invalid'],
  handler: async (input, deps) => {
    const token = input.params.token
    // A foreign page must not sign a browser in to someone else's account (login CSRF).
    if (!originAllowed(deps, input.headers)) return problem(input, 'refused')
    const found = TOKEN.test(token)
      ? await findSignInLink(deps.db, deps.clock, token)
      : { state: 'unknown' as const }
    if (found.state !== 'usable') return problem(input, found.state)
    const link = found.link
    const created = await deps.db.transaction().execute(async (tx) => {
      if (!(await consumeSignInLink(tx, deps.clock, link.token_hash))) return undefined
      await tx
        .updateTable('members')
        .set({ last_sign_in_at: toIso(deps.clock.now()) })
        .where('account_id', '=', link.account_id)
        .where('id', '=', link.member_id)
        .execute()
      return insertSession(tx, deps, { id: link.member_id, account_id: link.account_id })
    })
    if (!created) return problem(input, 'spent')
    input.reply.header(
      'set-cookie',
      sessionCookie(created.token, deps.config.publicUrl, SESSION_MAX_MS / 1000),
    )
    input.reply.header('location', '/console/')
    input.reply.code(303)
    return ''
  },
})
