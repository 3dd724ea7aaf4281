import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { match } from './app/route-match.ts'

describe('console route matching', () => {
  it('matches static paths exactly', () => {
    assert.deepEqual(match('/templates', '/templates'), {})
    assert.equal(match('/templates', '/templates/new'), null)
    assert.equal(match('/templates/new', '/templates'), null)
    assert.equal(match('/members', '/templates'), null)
  })

  it('gives named parameters, decoded', () => {
    assert.deepEqual(match('/submissions/:id', '/submissions/sub_123'), { id: 'sub_123' })
    assert.deepEqual(match('/developers/webhooks/:id', '/developers/webhooks/whk%5F1'), { id: 'whk_1' })
  })

  it('refuses an empty parameter and keeps a badly encoded one as it is', () => {
    assert.equal(match('/submissions/:id', '/submissions/'), null)
    assert.deepEqual(match('/submissions/:id', '/submissions/%E0%A4%A'), { id: '%E0%A4%A' })
  })
})
