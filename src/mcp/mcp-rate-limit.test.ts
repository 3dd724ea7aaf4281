// The MCP endpoint's own rate-limit bucket (docs/mcp.md#rate-limits): each POST /mcp counts once in
// the key's `mcp` bucket (RATE_LIMIT_MCP), its tools' API calls are not counted again in the key's
// test bucket, and the REST API's bucket is not the MCP one: past one, the other still answers.
// The SDK's own client over real HTTP; windows moved with the app's clock, never waited for.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { freePort } from '../../test/browser.ts'
import { startTestApp, type TestApp } from '../../test/harness.ts'
import { mcpClient, resultOf } from './mcp-client-kit.ts'

describe('the mcp rate-limit bucket', () => {
  let t: TestApp
  let key: string
  let client: Client

  before(async () => {
    const port = await freePort()
    const base = `http://127.0.0.1:${port}`
    t = await startTestApp({ env: { PUBLIC_URL: base, RATE_LIMIT_TEST: '3', RATE_LIMIT_MCP: '4' } })
    key = (await t.account()).testKey
    await t.app.listen({ port, host: '127.0.0.1' })
    client = await mcpClient(base, key) // initialize and its notification: 2 of 4
  })
  after(async () => {
    await client?.close()
    await t?.close()
  })

  const listTemplates = () =>
    client.callTool({ name: 'list_templates', arguments: {} }) as Promise<CallToolResult>
  const health = () => t.request(key, { method: 'GET', url: '/v1/health' })

  it('429 on MCP past RATE_LIMIT_MCP, while the REST API with the same key still answers', async () => {
    await client.listTools() // 3
    resultOf(await listTemplates()) // 4, and its GET /v1/templates is not counted in the test bucket
    await assert.rejects(listTemplates(), (error: unknown) => {
      assert.ok(error instanceof StreamableHTTPError)
      assert.equal(error.code, 429)
      assert.match(error.message, /"code":"rate_limit_exceeded"/)
      assert.match(error.message, /4 MCP requests per minute/)
      return true
    })
    // The test bucket saw none of the tools' calls: its three requests are all there.
    for (let i = 2; i >= 0; i--) {
      const res = await health()
      assert.equal(res.statusCode, 200)
      assert.equal(res.headers['x-ratelimit-remaining'], String(i))
    }
    assert.equal((await health()).statusCode, 429)
  })

  it('a new minute: the REST API spent, the MCP tools (and their API calls) still answer', async () => {
    t.clock.advance(60_000)
    for (let i = 0; i < 3; i++) assert.equal((await health()).statusCode, 200)
    const spent = await health()
    assert.equal(spent.statusCode, 429)
    assert.match(spent.json().error.message, /3 requests per minute/)
    const page = resultOf<{ templates: unknown[] }>(await listTemplates())
    assert.deepEqual(page.templates, [])
  })
})
