// `--email` of `paraph accounts create`, `members add` and `console-link`: read by the one parser of
// addresses (docs/api.md#e-mail-addresses), each refusal one line naming the option and why.
import type { Deps } from '../deps.ts'
import { ApiError } from '../errors.ts'
import { parseEmailAddress } from '../lib/email-address.ts'
import { checkDeliverable } from '../mail/address-delivery.ts'
import { CliError } from './context.ts'

/** The address as written (NFC), or a CliError saying why it is none. */
export function emailOption(text: string): string {
  const parsed = parseEmailAddress(text.trim())
  if (!parsed.ok) throw new CliError(`--email ${text}: ${parsed.problem}`)
  return parsed.address.written
}

/** For an address that will be mailed (a member's sign-in links, an owner's notices). */
export async function checkEmailDeliverable(deps: Pick<Deps, 'mailer'>, email: string): Promise<void> {
  try {
    await checkDeliverable(deps.mailer, [{ param: '--email', email }])
  } catch (error) {
    if (error instanceof ApiError) throw new CliError(error.message)
    throw error
  }
}
