// POST /console/api/sign_in_links — mails a sign-in link for each account the address is a member
// of (one mail). The answer is the same whether or not it is a member, so nobody learns who is.
import { Type } from 'typebox'
import { membershipsOf } from '../../accounts/member-store.ts'
import { Email, StringEnum } from '../../http/common-schemas.ts'
import { defineRoute } from '../../http/define-route.ts'
import { emailAddressOf } from '../../lib/email-address.ts'
import { checkDeliverable } from '../../mail/address-delivery.ts'
import { enqueueMail, type MailMessage } from '../../mail/mail-job.ts'
import { renderConsoleSignIn } from '../../mail/messages/console-sign-in.ts'
import { MAIL_LANGUAGES, mailTexts } from '../../mail/messages/texts.ts'
import { CONSOLE_NO_STORE_HEADERS } from '../shell/console-headers.ts'
import { checkOrigin } from './console-auth.ts'
import { countSignInRequest, insertSignInLink } from './sign-in-link-store.ts'

export const SignInLinkRequest = Type.Object({
  object: Type.Literal('sign_in_link_request'),
  email: Type.String(),
})

export const createSignInLinks = defineRoute({
  operationId: 'createSignInLinks',
  method: 'POST',
  url: '/console/api/sign_in_links',
  summary: 'Mail console sign-in links to an address',
  tag: 'Console',
  auth: 'none',
  headers: CONSOLE_NO_STORE_HEADERS,
  schema: {
    body: Type.Object(
      {
        email: Email,
        language: Type.Optional(StringEnum(MAIL_LANGUAGES)),
      },
      { additionalProperties: false },
    ),
    response: { 202: SignInLinkRequest },
  },
  errors: ['rate_limit_exceeded', 'csrf_token_invalid', 'email_not_deliverable'],
  handler: async ({ body, ip, headers }, deps) => {
    checkOrigin(deps, headers)
    // docs/api.md#e-mail-addresses: counted and matched by the comparison key (either spelling of
    // the domain is the same person), mailed and answered as written.
    const address = emailAddressOf(body.email)
    const email = address.written.toLowerCase()
    await checkDeliverable(deps.mailer, [{ param: 'email', email }])
    await deps.db.transaction().execute(async (tx) => {
      await countSignInRequest(tx, deps.clock, address.normalized, ip)
      const memberships = await membershipsOf(tx, address.normalized)
      if (memberships.length === 0) return
      const base = deps.config.publicUrl.replace(/\/+$/, '')
      const links = []
      for (const member of memberships) {
        const token = await insertSignInLink(tx, deps.clock, member, ip)
        links.push({ accountName: member.account_name, url: `${base}/console/sign-in/${token}` })
      }
      const message: MailMessage = {
        kind: 'console_sign_in',
        to: email,
        bcc: null,
        reply_to: null,
        ...renderConsoleSignIn({ links }, mailTexts(body.language ?? deps.config.mailLanguage)),
        submission_id: null,
        submitter_id: null,
      }
      await enqueueMail(tx, deps, message)
    })
    return { object: 'sign_in_link_request', email } as const
  },
})
