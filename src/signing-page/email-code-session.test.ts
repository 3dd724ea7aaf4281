import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { ManualClock } from '../lib/clock.ts'
import { deriveKey } from '../lib/crypto.ts'
import {
  hasVerifiedSession,
  issueSignerSession,
  presentedSessions,
  SESSION_TTL_MS,
  sessionCookie,
  sessionUnlocks,
} from './email-code-session.ts'

const key = deriveKey('x'.repeat(40), 'signer-session-v1')
const now = new Date('2026-11-22T10:00:00.000Z')
const ann = { id: 'sbm_AAAAAAAAAAAAAAAAAAAAAAAA', email: 'ann@example.eu' }

describe('signer sessions', () => {
  it('unlock their own signer at their address until they expire', () => {
    const { value, expiresAt } = issueSignerSession(key, ann, now)
    assert.equal(expiresAt.getTime(), now.getTime() + SESSION_TTL_MS)
    assert.ok(sessionUnlocks(key, value, ann, now))
    assert.ok(sessionUnlocks(key, value, ann, new Date(expiresAt.getTime() - 1)))
    assert.equal(sessionUnlocks(key, value, ann, expiresAt), false)
    assert.equal(sessionUnlocks(key, value, { ...ann, id: 'sbm_BBBBBBBBBBBBBBBBBBBBBBBB' }, now), false)
    assert.equal(sessionUnlocks(key, value, { ...ann, email: 'new@example.eu' }, now), false)
    assert.equal(sessionUnlocks(deriveKey('y'.repeat(40), 'signer-session-v1'), value, ann, now), false)
  })

  it('refuse edited values', () => {
    const { value } = issueSignerSession(key, ann, now)
    const [id, exp, mac] = value.split('.') as [string, string, string]
    for (const edited of [
      `${id}.${Number(exp) + 3600}.${mac}`,
      `${id}.${exp}.${mac.slice(1)}`,
      `${id}.${exp}.${mac}.`,
      `${id}.-1.${mac}`,
      `${id}.${exp}`,
      '',
    ]) {
      assert.equal(sessionUnlocks(key, edited, ann, now), false, edited)
    }
  })

  it('are read from the Paraph-Signer-Session header and from cookies, bounded', () => {
    const headers = {
      'paraph-signer-session': ' a.1.b ',
      cookie: 'x=1; paraph_signer_session=c.2.d; paraph_signer_session_other=e; paraph_signer_session=f=g',
    }
    assert.deepEqual(presentedSessions(headers), ['a.1.b', 'c.2.d', 'f=g'])
    assert.deepEqual(presentedSessions({}), [])
    assert.deepEqual(presentedSessions({ 'paraph-signer-session': 'x'.repeat(201) }), [])
    const many = Array.from({ length: 20 }, (_, i) => `paraph_signer_session=v${i}`).join('; ')
    assert.equal(presentedSessions({ cookie: many }).length, 8)
  })

  it('any presented session may be the one', () => {
    const clock = new ManualClock(now)
    const { value } = issueSignerSession(key, ann, now)
    const ctx = { keys: { signerSession: key }, clock }
    assert.ok(hasVerifiedSession(ctx, ['junk', value], ann))
    assert.equal(hasVerifiedSession(ctx, [], ann), false)
    clock.advance(SESSION_TTL_MS)
    assert.equal(hasVerifiedSession(ctx, [value], ann), false)
  })

  it('go in an HttpOnly SameSite=Lax cookie for the link path, Secure on request', () => {
    const expiresAt = new Date(now.getTime() + 7200_000)
    assert.equal(
      sessionCookie('v', '/s/abc', expiresAt, now, false),
      'paraph_signer_session=v; Path=/s/abc; Max-Age=7200; HttpOnly; SameSite=Lax',
    )
    assert.match(sessionCookie('v', '/embed/x.y.z', expiresAt, now, true), /; Secure$/)
  })
})
