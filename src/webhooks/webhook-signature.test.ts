import assert from 'node:assert/strict'
import { createHmac } from 'node:crypto'
import { describe, it } from 'node:test'
import { signatureHeader } from './webhook-signature.ts'

describe('signatureHeader', () => {
  const body = '{"id":"evt_1","type":"submission.sent"}'
  const secret = `whsec_${'a'.repeat(32)}`

  it('is t=<unix>,v1=<hex HMAC-SHA256 of t.body> with no spaces', () => {
    const expected = createHmac('sha256', secret).update(`1795315582.${body}`).digest('hex')
    assert.equal(signatureHeader([secret], 1795315582, body), `t=1795315582,v1=${expected}`)
  })

  it('carries one v1 per secret, in order', () => {
    const other = `whsec_${'b'.repeat(32)}`
    const header = signatureHeader([secret, other], 1, body)
    const parts = header.split(',')
    assert.equal(parts.length, 3)
    assert.equal(parts[2], `v1=${createHmac('sha256', other).update(`1.${body}`).digest('hex')}`)
    assert.doesNotMatch(header, /\s/)
  })

  it('changes with the body and with t', () => {
    assert.notEqual(signatureHeader([secret], 1, body), signatureHeader([secret], 1, `${body} `))
    assert.notEqual(signatureHeader([secret], 1, body).slice(4), signatureHeader([secret], 2, body).slice(4))
  })
})
