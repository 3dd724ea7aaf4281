import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { findRoute } from './route-table.ts'

const TABLE = [
  { method: 'GET', url: '/v1/submissions' },
  { method: 'POST', url: '/v1/submissions' },
  { method: 'GET', url: '/v1/submissions/:id' },
  { method: 'DELETE', url: '/v1/submissions/:id' },
  { method: 'POST', url: '/v1/submissions/from_pdf' },
  { method: 'GET', url: '/v1/submissions/:id/audit_log' },
  { method: 'GET', url: '/v1/submissions/:id/audit_log.json' },
  { method: 'POST', url: '/v1/webhook_endpoints/:id/deliveries/:delivery_id/retry' },
  { method: 'GET', url: '/console/*' },
]

describe('findRoute', () => {
  it('resolves a concrete path to the route that answers it', () => {
    assert.equal(findRoute(TABLE, 'GET', '/v1/submissions/sub_123'), '/v1/submissions/:id')
    assert.equal(findRoute(TABLE, 'POST', '/v1/submissions'), '/v1/submissions')
    assert.equal(
      findRoute(TABLE, 'POST', '/v1/webhook_endpoints/whk_1/deliveries/dlv_2/retry'),
      '/v1/webhook_endpoints/:id/deliveries/:delivery_id/retry',
    )
    assert.equal(
      findRoute(TABLE, 'GET', '/v1/submissions/sub_1/audit_log.json'),
      '/v1/submissions/:id/audit_log.json',
    )
  })

  it('a static segment wins over a parameter, per method as the router decides', () => {
    assert.equal(findRoute(TABLE, 'POST', '/v1/submissions/from_pdf'), '/v1/submissions/from_pdf')
    assert.equal(findRoute(TABLE, 'GET', '/v1/submissions/from_pdf'), '/v1/submissions/:id')
    assert.equal(findRoute(TABLE, undefined, '/v1/submissions/from_pdf'), '/v1/submissions/from_pdf')
    assert.equal(findRoute(TABLE, undefined, '/v1/submissions/sub_1'), '/v1/submissions/:id')
  })

  it('a wildcard matches the rest, after everything else', () => {
    assert.equal(findRoute(TABLE, 'GET', '/console/templates/new'), '/console/*')
  })

  it('undefined for a path or method no route answers, an empty segment, a longer or shorter path', () => {
    assert.equal(findRoute(TABLE, 'GET', '/v1/nowhere'), undefined)
    assert.equal(findRoute(TABLE, 'PATCH', '/v1/submissions/sub_1'), undefined)
    assert.equal(findRoute(TABLE, 'GET', '/v1/submissions/'), undefined)
    assert.equal(findRoute(TABLE, 'GET', '/v1/submissions/sub_1/audit_log/x'), undefined)
    assert.equal(findRoute(TABLE, 'GET', '/v1'), undefined)
  })
})
