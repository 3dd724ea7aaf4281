// The one reader of e-mail addresses (docs/api.md#e-mail-addresses): every address that enters
// Paraph (submitters, bcc_email, reply_to, console members, the CLI) goes through parseEmailAddress.
// An address is accepted as people write it — an internationalized domain (zoe@müller-bau.de), a
// pre-encoded one (zoe@xn--mller-bau-q9a.de), a local part in any script (jörg@…) — and refused with
// a sentence naming what is wrong. Domains go through UTS-46 with node's own url.domainToASCII (the
// WHATWG URL standard's host parser), then are held to the DNS's letters-digits-hyphen rule.
import { domainToASCII, domainToUnicode } from 'node:url'
import { BoundedMap } from './bounded-map.ts'

export interface EmailAddress {
  /** As written, in Unicode NFC: what is stored and shown (lower-cased where the store says so). */
  written: string
  /**
   * The comparison key: NFC, the local part lower-cased, the domain in its lower-case ASCII form.
   * `Zoe@Müller-Bau.de` and `zoe@xn--mller-bau-q9a.de` have the same key.
   */
  normalized: string
  /** What an SMTP server is given: the local part as written, the domain in its ASCII form. */
  ascii: string
  /** False when the local part holds a non-ASCII character: sending it needs SMTPUTF8 (RFC 6531). */
  asciiLocalPart: boolean
  localPart: string
  /** The domain as written (NFC). */
  domain: string
  /** The domain in its ASCII form (A-labels, lower-case). */
  asciiDomain: string
}

export type ParsedEmailAddress = { ok: true; address: EmailAddress } | { ok: false; problem: string }

/** RFC 5321 limits, on the encoded form: octets of the UTF-8 local part, characters of the ASCII domain. */
export const EMAIL_LIMITS = { localPartOctets: 64, domain: 253, label: 63, address: 254 } as const

// RFC 5322 atext, plus any non-ASCII character but controls, format characters, unassigned code
// points and separators (RFC 6531 adds UTF-8 to atext). Quoted local parts ("a b"@x) are refused.
const ATEXT = /^(?:[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]|[^\p{C}\p{Z}\p{ASCII}])+$/u
const ASCII_LABEL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/
/** ASCII characters a domain may hold once UTS-46 has mapped it (a full-width ％ would become %). */
const DOMAIN_ASCII = /^[A-Za-z0-9.-]$/
/** Scripts whose letters look alike: a label mixing them is a look-alike of another name. */
const CONFUSABLE_SCRIPTS = ['Latin', 'Greek', 'Cyrillic'] as const
const SCRIPT_TESTS = CONFUSABLE_SCRIPTS.map((name) => ({
  name,
  test: new RegExp(`\\p{Script=${name}}`, 'u'),
}))

const utf8Length = (text: string) => Buffer.byteLength(text, 'utf8')

export function parseEmailAddress(input: string): ParsedEmailAddress {
  const written = input.normalize('NFC')
  const at = written.lastIndexOf('@')
  if (at <= 0 || at === written.length - 1) {
    return refused('must be an e-mail address: a local part, "@" and a domain (zoe@example.com)')
  }
  const localPart = written.slice(0, at)
  const domain = written.slice(at + 1)
  const localProblem = localPartProblem(localPart)
  if (localProblem) return refused(localProblem)
  const asciiDomain = toAsciiDomain(domain)
  if (typeof asciiDomain !== 'string') return refused(asciiDomain.problem)
  const octets = utf8Length(localPart) + 1 + asciiDomain.length
  if (octets > EMAIL_LIMITS.address) {
    return refused(`the address is ${octets} octets once encoded; at most ${EMAIL_LIMITS.address}`)
  }
  return {
    ok: true,
    address: {
      written,
      normalized: `${localPart.toLowerCase().normalize('NFC')}@${asciiDomain}`,
      ascii: `${localPart}@${asciiDomain}`,
      asciiLocalPart: isAscii(localPart),
      localPart,
      domain,
      asciiDomain,
    },
  }
}

/** The address, or throws: for text that passed the schema's `email` format already. */
export function emailAddressOf(text: string): EmailAddress {
  const parsed = parseEmailAddress(text)
  if (!parsed.ok) throw new Error(`not an e-mail address (${parsed.problem}): ${text}`)
  return parsed.address
}

/** The comparison key of `text` when it is an address, else `text` lower-cased (a filter never refuses). */
export function emailKey(text: string): string {
  const parsed = parseEmailAddress(text.trim())
  return parsed.ok ? parsed.address.normalized : text.trim().normalize('NFC').toLowerCase()
}

function refused(problem: string): ParsedEmailAddress {
  return { ok: false, problem }
}

export function isAscii(text: string): boolean {
  return /^\p{ASCII}*$/u.test(text)
}

function localPartProblem(localPart: string): string | null {
  const atoms = localPart.split('.')
  if (atoms.some((atom) => !ATEXT.test(atom))) {
    return `the local part "${clip(localPart)}" is not one: letters, digits, !#$%&'*+/=?^_\`{|}~- and single dots between them (no spaces, quotes or "@")`
  }
  const octets = utf8Length(localPart)
  if (octets > EMAIL_LIMITS.localPartOctets) {
    return `the local part is ${octets} octets once encoded in UTF-8; at most ${EMAIL_LIMITS.localPartOctets}`
  }
  return null
}

/**
 * Domains already read: the reading is pure, and a bulk send's 10 000 rows name a handful of
 * domains (reading one cost ~30 µs: NFKC, IDNA both ways, the script checks).
 */
const domains = new BoundedMap<string, string | { problem: string }>(2000)

function toAsciiDomain(domain: string): string | { problem: string } {
  const known = domains.get(domain)
  if (known !== undefined) return known
  const read = readDomain(domain)
  domains.set(domain, read)
  return read
}

function readDomain(domain: string): string | { problem: string } {
  const shown = `the domain "${clip(domain)}"`
  if (domain.startsWith('[')) return { problem: `${shown} is an address literal; give a domain name` }
  const mapped = domain.normalize('NFKC')
  const oddAscii = [...mapped].find((c) => isAscii(c) && !DOMAIN_ASCII.test(c))
  const ascii = oddAscii === undefined ? domainToASCII(domain) : ''
  const labels = ascii.split('.')
  const badLabel = (l: string) => (!ASCII_LABEL.test(l) && l.length <= EMAIL_LIMITS.label) || !decodes(l)
  if (ascii === '' || labels.some(badLabel)) {
    return { problem: `${shown} is not a valid internationalized domain name` }
  }
  const long = labels.find((l) => l.length > EMAIL_LIMITS.label)
  if (long !== undefined) {
    return {
      problem: `${shown} has a label of ${long.length} characters in its ASCII form; at most ${EMAIL_LIMITS.label}`,
    }
  }
  if (labels.length < 2) return { problem: `${shown} has no dot; give a full domain name (example.com)` }
  if (/^[0-9]+$/.test(labels[labels.length - 1] ?? '')) {
    return { problem: `${shown} is an IP address; give a domain name` }
  }
  if (ascii.length > EMAIL_LIMITS.domain) {
    return {
      problem: `${shown} is ${ascii.length} characters in its ASCII form; at most ${EMAIL_LIMITS.domain}`,
    }
  }
  // On the Unicode form, so a pre-encoded look-alike (xn--pypal-4ve.com) is caught too.
  const mixed = mixedScriptLabel(domainToUnicode(ascii))
  if (mixed) {
    return {
      problem: `${shown} mixes ${mixed.scripts.join(' and ')} letters in the label "${mixed.label}", a look-alike of another name; write each label in one script`,
    }
  }
  return ascii
}

/**
 * An `xn--` label must be Punycode that decodes and encodes back to itself. Node.js 22 answers ""
 * for one that does not (xn--zz); Node.js 24's URL parser passes it through unchanged, so the round
 * trip is checked here rather than left to the runtime.
 */
function decodes(label: string): boolean {
  if (!label.toLowerCase().startsWith('xn--')) return true
  const unicode = domainToUnicode(label)
  return (
    unicode !== '' &&
    !unicode.toLowerCase().startsWith('xn--') &&
    domainToASCII(unicode) === label.toLowerCase()
  )
}

/**
 * docs/api.md#e-mail-addresses: a label mixing Latin, Greek and Cyrillic letters (pаypal.com with a
 * Cyrillic "а") is refused; a label in one script, or mixing others (Latin with Han or kana), is not.
 */
function mixedScriptLabel(domain: string): { label: string; scripts: string[] } | null {
  for (const label of domain.split('.')) {
    const scripts = SCRIPT_TESTS.filter(({ test }) => [...label].some((c) => test.test(c))).map((s) => s.name)
    if (scripts.length > 1) return { label, scripts }
  }
  return null
}

function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, 80)}…` : text
}

/**
 * What a submitter's or a member's row holds (docs/api.md#e-mail-addresses): `email` as written,
 * lower-cased as Paraph always stored it (`Zoe@Müller-Bau.de` → `zoe@müller-bau.de`, the domain
 * never turned from Unicode to xn-- or back), and `email_key`, the form comparisons use.
 */
export function storedEmail(text: string): { email: string; email_key: string } {
  const address = emailAddressOf(text)
  return { email: address.written.toLowerCase().normalize('NFC'), email_key: address.normalized }
}
