// Whom a signing request may be sent again to, and how often (resend-signing-request-rules.ts).
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { SubmittersTable } from '../../db/tables.ts'
import { RESEND_SPACING_MS, resendLimit, resendRefusal } from './resend-signing-request-rules.ts'

const NOW = new Date('2026-11-22T10:00:00.000Z')
const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString()
const MINUTE = 60_000

function signer(id: string, status: SubmittersTable['status'], sendEmail = 1): SubmittersTable {
  return { id, status, send_email: sendEmail } as SubmittersTable
}

describe('resendLimit', () => {
  it('allows the first resend, and the next one exactly 5 minutes after the last', () => {
    assert.equal(resendLimit([], NOW), null)
    assert.equal(resendLimit([ago(RESEND_SPACING_MS)], NOW), null)
  })

  it('429 with the seconds left before the 5 minutes are up', () => {
    const refused = resendLimit([ago(2 * MINUTE)], NOW)
    assert.equal(refused?.code, 'rate_limit_exceeded')
    assert.equal(refused?.headers['retry-after'], '180')
  })

  it('429 on the sixth in 24 hours, until the oldest of the five leaves the day', () => {
    const five = [23, 20, 15, 10, 1].map((h) => ago(h * 60 * MINUTE))
    const refused = resendLimit(five, NOW)
    assert.match(refused?.message ?? '', /5 times in 24 hours/)
    assert.equal(refused?.headers['retry-after'], String(60 * 60))
    assert.equal(resendLimit(five.slice(1), NOW), null, 'four in the day are fine')
  })

  it('names the later of the two limits when both apply', () => {
    const recent = [3, 2, 1].map((h) => ago(h * 60 * MINUTE)).concat(ago(MINUTE))
    const spacingLater = resendLimit([ago(1438 * MINUTE), ...recent], NOW)
    assert.match(spacingLater?.message ?? '', /once every 5 minutes/)
    assert.equal(spacingLater?.headers['retry-after'], String(4 * 60))
    const dayLater = resendLimit([ago(1430 * MINUTE), ...recent], NOW)
    assert.match(dayLater?.message ?? '', /5 times in 24 hours/)
    assert.equal(dayLater?.headers['retry-after'], String(10 * 60))
  })
})

describe('resendRefusal', () => {
  const open = { status: 'sent' as const, expires_at: null, signing_order: 'preserved' as const }
  const everyone = [signer('a', 'signed'), signer('b', 'opened'), signer('c', 'pending')]

  it('allows the signer whose turn it is; under random order any signer still to sign', () => {
    assert.equal(resendRefusal(everyone[1]!, open, everyone, NOW), null)
    assert.equal(resendRefusal(everyone[2]!, { ...open, signing_order: 'random' }, everyone, NOW), null)
  })

  it('refuses in order: finished signer, ended submission, not mailed yet', () => {
    assert.equal(resendRefusal(everyone[0]!, open, everyone, NOW)?.code, 'submitter_already_finalized')
    const cancelled = { ...open, status: 'cancelled' as const }
    assert.equal(resendRefusal(everyone[1]!, cancelled, everyone, NOW)?.code, 'submission_already_finalized')
    const lapsed = { ...open, expires_at: ago(1) }
    assert.match(resendRefusal(everyone[1]!, lapsed, everyone, NOW)?.message ?? '', /expired/)
    assert.equal(resendRefusal(everyone[2]!, open, everyone, NOW)?.code, 'submitter_not_yet_requested')
    const noMail = [everyone[0]!, signer('b', 'pending', 0)]
    assert.match(resendRefusal(noMail[1]!, open, noMail, NOW)?.message ?? '', /send_email/)
  })
})
