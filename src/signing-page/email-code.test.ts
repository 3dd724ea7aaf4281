import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { Email2faCodesTable } from '../db/tables.ts'
import { deriveKey } from '../lib/crypto.ts'
import {
  deriveEmailCode,
  EMAIL_CODE,
  hashEmailCode,
  judgeCode,
  recentSends,
  resendWaitMs,
  sendLimitWaitMs,
} from './email-code.ts'

const key = deriveKey('x'.repeat(40), 'email-2fa-code-v1')
const seed = deriveKey('x'.repeat(40), 'email-2fa-code-seed-v1')
const now = new Date('2026-11-22T10:00:00.000Z')
const ann = { id: 'sbm_AAAAAAAAAAAAAAAAAAAAAAAA', email: 'ann@example.eu' }

function row(code: string, over: Partial<Email2faCodesTable> = {}): Email2faCodesTable {
  return {
    submitter_id: ann.id,
    member_id: '',
    account_id: 'acct_1',
    environment: 'test',
    code_hash: hashEmailCode(key, ann.id, code),
    sent_to: ann.email,
    sent_at: now.toISOString(),
    expires_at: new Date(now.getTime() + EMAIL_CODE.ttlMs).toISOString(),
    wrong_tries: 0,
    used_at: null,
    recent_sends: '[]',
    ...over,
  }
}

describe('e-mail codes', () => {
  it('are 6 digits derived from the mail job, hashed per signer under the key', () => {
    const code = deriveEmailCode(seed, ann.id, 'job_AAAAAAAAAAAAAAAAAAAAAAAA')
    assert.match(code, /^[0-9]{6}$/)
    assert.equal(
      deriveEmailCode(seed, ann.id, 'job_AAAAAAAAAAAAAAAAAAAAAAAA'),
      code,
      'every attempt, one code',
    )
    assert.notEqual(deriveEmailCode(seed, ann.id, 'job_BBBBBBBBBBBBBBBBBBBBBBBB'), code)
    assert.notEqual(
      deriveEmailCode(key, ann.id, 'job_AAAAAAAAAAAAAAAAAAAAAAAA'),
      code,
      'another key, another code',
    )
    const hash = hashEmailCode(key, ann.id, code)
    assert.match(hash, /^[0-9a-f]{64}$/)
    assert.notEqual(hashEmailCode(key, 'sbm_BBBBBBBBBBBBBBBBBBBBBBBB', code), hash)
    assert.notEqual(hashEmailCode(deriveKey('y'.repeat(40), 'email-2fa-code-v1'), ann.id, code), hash)
  })

  it('spread over every digit: 20 000 codes of 20 000 jobs, each digit about a tenth of the time', () => {
    const counts = new Array(10).fill(0)
    for (let i = 0; i < 20_000; i++) {
      for (const digit of deriveEmailCode(seed, ann.id, `job_${i}`)) counts[Number(digit)]++
    }
    for (const count of counts) assert.ok(Math.abs(count - 12_000) < 600, `digit counts ${counts}`)
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

  it('at most 10 sends in any 24 hours: the wait runs until the oldest of the last 10 is 24 hours old', () => {
    const at = (minutes: number) => new Date(now.getTime() + minutes * 60_000).toISOString()
    const ten = Array.from({ length: 10 }, (_, i) => at(i))
    assert.equal(sendLimitWaitMs(ten.slice(0, 9), new Date(at(9))), 0)
    const later = new Date(at(10))
    assert.equal(sendLimitWaitMs(ten, later), EMAIL_CODE.sendsWindowMs - 10 * 60_000)
    const dayAfterFirst = new Date(now.getTime() + EMAIL_CODE.sendsWindowMs)
    assert.equal(
      sendLimitWaitMs(
        recentSends(row('1', { recent_sends: JSON.stringify(ten) }), dayAfterFirst),
        dayAfterFirst,
      ),
      0,
    )
    assert.deepEqual(
      recentSends(row('1', { recent_sends: JSON.stringify(ten) }), dayAfterFirst),
      ten.slice(1),
    )
    assert.deepEqual(recentSends(undefined, now), [])
  })
})
