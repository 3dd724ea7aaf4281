// docs/api.md#e-mail-addresses: an address whose local part is not ASCII (jörg@müller-bau.de) is
// accepted only when mail can reach it — the SMTP server announces SMTPUTF8, or there is no server
// yet (the outbox keeps the mail). Checked wherever an address enters, before anything is written.
import { fieldError } from '../errors.ts'
import { parseEmailAddress } from '../lib/email-address.ts'
import type { Mailer } from './mailer.ts'

/** An address of the request and its path (`submitters[0].email`); absent ones are skipped. */
export interface AddressInput {
  param: string
  email: string | null | undefined
}

/** 422 email_not_deliverable naming the first address no mail could reach. */
export async function checkDeliverable(
  mailer: Pick<Mailer, 'utf8Delivery'>,
  inputs: AddressInput[],
): Promise<void> {
  const needy = inputs.find(({ email }) => {
    const parsed = typeof email === 'string' ? parseEmailAddress(email) : null
    return parsed?.ok === true && !parsed.address.asciiLocalPart
  })
  if (!needy) return
  const delivery = await mailer.utf8Delivery()
  if (delivery === 'announced' || delivery === 'outbox') return
  const local = parseEmailAddress(needy.email as string)
  const shown = local.ok ? local.address.localPart : needy.email
  const why =
    delivery === 'unreachable'
      ? 'the SMTP server could not be asked whether it announces SMTPUTF8 (RFC 6531); try again later or give an ASCII address'
      : 'the SMTP server does not announce SMTPUTF8 (RFC 6531), so no mail could reach it; give an address whose local part is ASCII'
  throw fieldError('email_not_deliverable', needy.param, `the local part "${shown}" is not ASCII and ${why}.`)
}
