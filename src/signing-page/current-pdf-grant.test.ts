import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { grantUnlocks, issueCurrentPdfGrant, parseCurrentPdfGrant } from './current-pdf-grant.ts'

const KEY = new Uint8Array(32).fill(7)
const now = new Date('2026-11-22T10:00:00Z')
const expiresAt = new Date(now.getTime() + 60 * 60 * 1000)
const ann = { id: `sbm_${'A'.repeat(24)}`, submission_id: `sub_${'S'.repeat(24)}`, email: 'ann@example.eu' }

const unlocks = (text: string, submitter = ann, at = now, key = KEY) => {
  const grant = parseCurrentPdfGrant(text)
  return grant !== null && grantUnlocks(key, grant, submitter, at)
}

describe('current PDF grants', () => {
  it('unlock the download for the signer they were issued to, until they expire', () => {
    const grant = issueCurrentPdfGrant(KEY, ann, expiresAt)
    assert.match(grant, /^sub_S{24}\.sbm_A{24}\.\d+\.[A-Za-z0-9_-]{43}$/)
    assert.equal(unlocks(grant), true)
    assert.equal(unlocks(grant, ann, new Date(expiresAt.getTime() - 1000)), true)
    assert.equal(unlocks(grant, ann, expiresAt), false, 'expired')
  })

  it('are refused for another signer, a changed address, another key, or any edit', () => {
    const grant = issueCurrentPdfGrant(KEY, ann, expiresAt)
    assert.equal(unlocks(grant, { ...ann, id: `sbm_${'B'.repeat(24)}` }), false)
    assert.equal(unlocks(grant, { ...ann, email: 'new@example.eu' }), false)
    assert.equal(unlocks(grant, ann, now, new Uint8Array(32).fill(8)), false)
    const [sid, sbm, exp, mac] = grant.split('.')
    assert.equal(unlocks(`${sid}.${sbm}.${Number(exp) + 3600}.${mac}`), false, 'expiry pushed back')
    const flipped = `${mac!.slice(0, -1)}${mac!.endsWith('A') ? 'B' : 'A'}`
    assert.equal(unlocks(`${sid}.${sbm}.${exp}.${flipped}`), false)
  })

  it('parse only their own shape', () => {
    for (const text of ['', 'abc', 'a.b.c.d', `${issueCurrentPdfGrant(KEY, ann, expiresAt)}.x`]) {
      assert.equal(parseCurrentPdfGrant(text), null, text)
    }
  })
})
