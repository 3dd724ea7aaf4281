// http/inner-request.ts (docs/mcp.md#rate-limits): only a request this process injects on
// InnerRequest is an inner one — not a request from a socket, whatever it carries, nor an ordinary
// inject (the tests' own requests, which the rate limits count).
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import Fastify, { type FastifyInstance } from 'fastify'
import { InnerRequest, isInnerRequest } from './inner-request.ts'

describe('isInnerRequest', () => {
  let app: FastifyInstance
  let base: string
  before(async () => {
    app = Fastify()
    app.post('/probe', async (request) => ({ inner: isInnerRequest(request), body: request.body }))
    base = await app.listen({ port: 0, host: '127.0.0.1' })
  })
  after(() => app.close())

  it('true for a request injected on InnerRequest, its body and address intact', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/probe',
      payload: { a: 1 },
      remoteAddress: '203.0.113.9',
      Request: InnerRequest,
    })
    assert.deepEqual(res.json(), { inner: true, body: { a: 1 } })
  })

  it('false for an ordinary inject and for any request from the network', async () => {
    assert.equal((await app.inject({ method: 'POST', url: '/probe', payload: {} })).json().inner, false)
    const res = await fetch(`${base}/probe`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-inner-request': 'true',
        'user-agent': 'InnerRequest',
      },
      body: JSON.stringify({ Request: 'InnerRequest', isLightMyRequest: true }),
    })
    assert.equal(((await res.json()) as { inner: boolean }).inner, false)
  })
})
