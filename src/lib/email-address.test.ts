import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { EMAIL_LIMITS, emailKey, parseEmailAddress } from './email-address.ts'

function accepted(text: string) {
  const parsed = parseEmailAddress(text)
  assert.ok(parsed.ok, `${text}: ${parsed.ok ? '' : parsed.problem}`)
  return parsed.address
}

function problemOf(text: string): string {
  const parsed = parseEmailAddress(text)
  assert.ok(!parsed.ok, `${text} should be refused`)
  return parsed.problem
}

describe('parseEmailAddress: accepted as written', () => {
  it('an internationalized domain: written kept, ASCII form for sending, key in ASCII', () => {
    assert.deepEqual(accepted('zoe@müller-bau.de'), {
      written: 'zoe@müller-bau.de',
      normalized: 'zoe@xn--mller-bau-q9a.de',
      ascii: 'zoe@xn--mller-bau-q9a.de',
      asciiLocalPart: true,
      localPart: 'zoe',
      domain: 'müller-bau.de',
      asciiDomain: 'xn--mller-bau-q9a.de',
    })
  })

  it('a pre-encoded xn-- domain is kept as written and has the key of its Unicode twin', () => {
    const encoded = accepted('Zoe@XN--MLLER-BAU-Q9A.DE')
    assert.equal(encoded.written, 'Zoe@XN--MLLER-BAU-Q9A.DE')
    assert.equal(encoded.normalized, accepted('zoe@Müller-Bau.de').normalized)
  })

  it('a non-ASCII local part is flagged (it needs SMTPUTF8); the local part keeps its case in `ascii`', () => {
    const jorg = accepted('Jörg@müller-bau.de')
    assert.equal(jorg.asciiLocalPart, false)
    assert.equal(jorg.ascii, 'Jörg@xn--mller-bau-q9a.de')
    assert.equal(jorg.normalized, 'jörg@xn--mller-bau-q9a.de')
  })

  it('Chinese local part and domain', () => {
    const address = accepted('用户@例子.广告')
    assert.equal(address.asciiDomain, 'xn--fsqu00a.xn--4rr70v')
    assert.equal(address.asciiLocalPart, false)
  })

  it('NFD input is stored NFC, so both spellings compare equal', () => {
    const nfd = 'zoe@mu\u0308ller-bau.de'
    assert.equal(accepted(nfd).written, 'zoe@müller-bau.de')
    assert.equal(emailKey(nfd), emailKey('ZOE@müller-bau.de'))
  })

  it('plain ASCII addresses as before, with +tags and dots', () => {
    const plain = accepted('Ann.Lee+sales@Example.EU')
    assert.equal(plain.normalized, 'ann.lee+sales@example.eu')
    assert.equal(plain.ascii, 'Ann.Lee+sales@example.eu')
    assert.equal(plain.asciiLocalPart, true)
  })

  it('a label in one non-Latin script, or Latin mixed with Han, is not a look-alike', () => {
    accepted('ivan@пример.рф')
    accepted('info@sony-ソニー.jp')
  })
})

describe('parseEmailAddress: refused, saying why', () => {
  it('no "@", an empty side, spaces, quotes, double dots', () => {
    for (const text of [
      'zoe',
      '@example.com',
      'zoe@',
      'a b@example.com',
      '"a"@example.com',
      'a..b@example.com',
      '.a@example.com',
    ]) {
      assert.match(problemOf(text), /e-mail address|local part/, text)
    }
  })

  it('a domain UTS-46 refuses, or that is not letters, digits and hyphens', () => {
    for (const domain of [
      'xn--zz.com',
      'ex_ample.com',
      '-ab.com',
      'ab-.com',
      'ex..com',
      'ex.com.',
      'a％41.com',
      'ex#ample.com',
      'a\u200db.com',
    ]) {
      assert.equal(
        problemOf(`zoe@${domain}`),
        `the domain "${domain}" is not a valid internationalized domain name`,
      )
    }
  })

  it('an address literal, a dotless name, an IP address', () => {
    assert.match(problemOf('zoe@[127.0.0.1]'), /address literal/)
    assert.match(problemOf('zoe@localhost'), /has no dot/)
    assert.match(problemOf('zoe@127.0.0.1'), /IP address/)
  })

  it('a Cyrillic "а" in a Latin label is refused as a look-alike, pre-encoded or not', () => {
    const cyrillic = 'p\u0430ypal.com'
    assert.equal(
      problemOf(`zoe@${cyrillic}`),
      `the domain "${cyrillic}" mixes Latin and Cyrillic letters in the label "${cyrillic.split('.')[0]}", a look-alike of another name; write each label in one script`,
    )
    assert.match(problemOf('zoe@xn--pypal-4ve.com'), /mixes Latin and Cyrillic/)
  })
})

describe('parseEmailAddress: limits on the encoded form', () => {
  it('local part: 64 octets of UTF-8 pass, 65 are refused (ö is two octets)', () => {
    accepted(`${'a'.repeat(64)}@example.com`)
    accepted(`${'ö'.repeat(32)}@example.com`)
    assert.equal(
      problemOf(`${'ö'.repeat(32)}a@example.com`),
      'the local part is 65 octets once encoded in UTF-8; at most 64',
    )
  })

  it('a label of 63 characters in its ASCII form passes; a Unicode label longer once encoded is refused', () => {
    accepted(`zoe@${'a'.repeat(63)}.com`)
    const label = 'äöüéèêëïîôûçñåàáâãæíìóòúùý'.repeat(2) // 52 characters, 65 once encoded as xn--…
    assert.match(problemOf(`zoe@${label}.de`), /has a label of 65 characters in its ASCII form; at most 63/)
  })

  it('domain: 253 characters in ASCII pass, 254 are refused; the whole address at most 254 octets', () => {
    const domain253 = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`
    assert.equal(domain253.length, EMAIL_LIMITS.domain)
    assert.match(problemOf(`z@${domain253}x`), /is 254 characters in its ASCII form; at most 253/)
    assert.match(problemOf(`zoe@${domain253}`), /the address is 257 octets once encoded; at most 254/)
    accepted(`z@${domain253.slice(0, 251)}`)
  })
})

describe('emailKey', () => {
  it('finds the same key for the Unicode and xn-- forms, and lower-cases what is no address', () => {
    assert.equal(emailKey('ZOE@müller-bau.de'), emailKey('zoe@xn--mller-bau-q9a.de'))
    assert.equal(emailKey('Not An Address'), 'not an address')
  })
})
