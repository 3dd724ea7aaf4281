import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { contactChange, patchRefusal } from './submitter-changes.ts'

const now = new Date('2026-11-22T10:00:00.000Z')
const current = { email: 'ann@example.eu', email_key: 'ann@example.eu', phone: null, name: 'Ann' }
const slug = () => 'NEWSLUG'

describe('contactChange', () => {
  it('changes only what differs; a new address (lower-cased) brings a new slug and forgets the verified code', () => {
    assert.deepEqual(contactChange(current, { email: 'ANN@example.eu', name: 'Ann' }, slug), {
      changed: [],
      set: {},
      email: null,
    })
    assert.deepEqual(contactChange(current, { email: 'Bob@Example.EU', phone: '+1 555', name: null }, slug), {
      changed: ['email', 'phone', 'name'],
      set: {
        email: 'bob@example.eu',
        email_key: 'bob@example.eu',
        signing_slug: 'NEWSLUG',
        email_2fa_verified_at: null,
        phone: '+1 555',
        name: null,
      },
      email: { from: 'ann@example.eu', to: 'bob@example.eu' },
    })
  })

  it('an internationalized address is kept as written (lower-cased); its xn-- spelling is the same address', () => {
    const zoe = { email: 'zoe@müller-bau.de', email_key: 'zoe@xn--mller-bau-q9a.de', phone: null, name: null }
    assert.deepEqual(contactChange(zoe, { email: 'Zoe@XN--MLLER-BAU-Q9A.de' }, slug).changed, [])
    const change = contactChange(current, { email: 'Zoe@Müller-Bau.de' }, slug)
    assert.deepEqual(
      [change.set.email, change.set.email_key],
      ['zoe@müller-bau.de', 'zoe@xn--mller-bau-q9a.de'],
    )
  })
})

describe('patchRefusal', () => {
  const active = { status: 'sent' as const, expires_at: null }
  it('allows pending and opened submitters of an active submission', () => {
    assert.equal(patchRefusal({ status: 'pending' }, active, now), null)
    assert.equal(patchRefusal({ status: 'opened' }, { ...active, status: 'partially_signed' }, now), null)
  })

  it('refuses finished submitters first, then ended submissions (also past expires_at)', () => {
    for (const status of ['signed', 'declined', 'pre_signed'] as const) {
      assert.equal(patchRefusal({ status }, active, now)?.code, 'submitter_already_finalized')
    }
    for (const status of ['completed', 'declined', 'expired', 'cancelled'] as const) {
      assert.equal(
        patchRefusal({ status: 'pending' }, { ...active, status }, now)?.code,
        'submission_already_finalized',
      )
    }
    const lapsed = patchRefusal({ status: 'pending' }, { ...active, expires_at: now.toISOString() }, now)
    assert.equal(lapsed?.code, 'submission_already_finalized')
    assert.match(lapsed?.message ?? '', /expired/)
  })
})
