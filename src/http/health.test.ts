import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { errorOf, startTestApp, type TestApp } from '../../test/harness.ts'

describe('probes outside /v1', () => {
  let t: TestApp
  before(async () => {
    t = await startTestApp()
  })
  after(() => t.close())

  it('GET /healthz answers 200 without a key', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' })
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json(), { status: 'ok' })
    assert.match(String(res.headers['request-id']), /^req_/)
    assert.equal(res.headers['x-ratelimit-limit'], undefined)
  })

  it('GET /readyz answers 200 while the database answers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/readyz' })
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json(), { status: 'ready' })
  })

  it('GET /readyz answers 503 not_ready once the database is gone', async () => {
    await t.deps.db.destroy()
    const res = await t.app.inject({ method: 'GET', url: '/readyz' })
    assert.equal(res.statusCode, 503)
    assert.deepEqual(errorOf(res), {
      type: 'api_error',
      code: 'not_ready',
      message: 'The database does not answer.',
    })
  })
})
