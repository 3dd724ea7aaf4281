import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { Email2faCodesTable } from '../db/tables.ts'
import { deriveKey } from '../lib/crypto.ts'
import {
  EMAIL_CODE,
  emailCodeMessage,
  hashEmailCode,
  judgeCode,
  newEmailCode,
  resendWaitMs,
} from './email-code.ts'

const key = deriveKey('x'.repeat(40), 'email-2fa-code-v1')
const now = new Date('2026-11-22T10:00:00.000Z')
const ann = { id: 'sbm_AAAAAAAAAAAAAAAAAAAAAAAA', email: 'ann@example.eu' }

function row(code: string, over: Partial<Email2faCodesTable> = {}): Email2faCodesTable {
  return {
    submitter_id: ann.id,
    account_id: 'acct_1',
    environment: 'test',
    code_hash: hashEmailCode(key, ann.id, code),
    sent_to: ann.email,
    sent_at: now.toISOString(),
    expires_at: new Date(now.getTime() + EMAIL_CODE.ttlMs).toISOString(),
    wrong_tries: 0,
    used_at: null,
    ...over,
  }
}

describe('e-mail codes', () => {
  it('are 6 digits, hashed per signer under the key', () => {
    const code = newEmailCode()
    assert.match(code, /^[0-9]{6}$/)
    const hash = hashEmailCode(key, ann.id, code)
    assert.match(hash, /^[0-9a-f]{64}$/)
    assert.notEqual(hashEmailCode(key, 'sbm_BBBBBBBBBBBBBBBBBBBBBBBB', code), hash)
    assert.notEqual(hashEmailCode(deriveKey('y'.repeat(40), 'email-2fa-code-v1'), ann.id, code), hash)
  })

  it('judges a try: right, wrong, expired at 10 minutes, void when used, tried 5 times, unsent or sent elsewhere', () => {
    assert.equal(judgeCode(key, row('123456'), ann, '123456', now), 'right')
    assert.equal(judgeCode(key, row('123456'), ann, '654321', now), 'wrong')
    const atExpiry = new Date(now.getTime() + EMAIL_CODE.ttlMs)
    assert.equal(judgeCode(key, row('123456'), ann, '123456', new Date(atExpiry.getTime() - 1)), 'right')
    assert.equal(judgeCode(key, row('123456'), ann, '123456', atExpiry), 'expired')
    assert.equal(judgeCode(key, row('123456', { used_at: now.toISOString() }), ann, '123456', now), 'void')
    assert.equal(judgeCode(key, row('123456', { wrong_tries: 4 }), ann, '123456', now), 'right')
    assert.equal(judgeCode(key, row('123456', { wrong_tries: 5 }), ann, '123456', now), 'void')
    assert.equal(judgeCode(key, undefined, ann, '123456', now), 'void')
    assert.equal(judgeCode(key, row('123456'), { ...ann, email: 'new@example.eu' }, '123456', now), 'void')
  })

  it('may be sent again 30 s after the last one', () => {
    assert.equal(resendWaitMs(undefined, now), 0)
    assert.equal(resendWaitMs(row('1'), now), 30_000)
    assert.equal(resendWaitMs(row('1'), new Date(now.getTime() + 29_001)), 999)
    assert.equal(resendWaitMs(row('1'), new Date(now.getTime() + 30_000)), 0)
  })

  it('are mailed on a line of their own, with the validity, and never in the subject', () => {
    const mail = emailCodeMessage({ name: 'Ann' }, { message_subject: 'Lease' }, '042917', now)
    assert.match(mail.text, /^Hello Ann,/)
    assert.match(mail.text, /^ {4}042917$/m)
    assert.match(mail.text, /"Lease"/)
    assert.match(mail.text, new RegExp(now.toISOString()))
    assert.ok(!mail.subject.includes('042917'))
  })
})
