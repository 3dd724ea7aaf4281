// `paraph mcp` (docs/mcp.md#stdio): the built binary spawned by the MCP SDK's own stdio client, a
// client of a listening Paraph (PARAPH_URL, PARAPH_API_KEY): its tools listed, a document sent from
// HTML (the same call twice creates once), its status read; a key it does not know refused with
// the API's code. Needs `npm run build` first, as every test of the binary.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { freePort } from '../../test/browser.ts'
import { startTestApp, type TestApp } from '../../test/harness.ts'
import { BIN } from '../../test/paraph-process.ts'
import { resultOf } from './mcp-client-kit.ts'

async function stdioClient(env: Record<string, string>): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp'],
    env: { PATH: process.env.PATH ?? '', ...env },
    stderr: 'pipe',
  })
  let stderr = ''
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk
  })
  const client = new Client({ name: 'paraph-stdio-test', version: '1.0.0' })
  await client.connect(transport)
  return { client, stderr: () => stderr }
}

describe('paraph mcp (stdio)', () => {
  let t: TestApp
  let base: string
  let key: string
  let client: Client

  before(async () => {
    const port = await freePort()
    base = `http://127.0.0.1:${port}`
    t = await startTestApp({ env: { PUBLIC_URL: base } })
    key = (await t.account()).testKey
    await t.app.listen({ port, host: '127.0.0.1' })
    ;({ client } = await stdioClient({ PARAPH_URL: base, PARAPH_API_KEY: key }))
  })
  after(async () => {
    await client?.close()
    await t?.close()
  })

  const call = (name: string, args: Record<string, unknown>) =>
    client.callTool({ name, arguments: args }) as Promise<CallToolResult>

  it('lists the same eight tools as the HTTP endpoint', async () => {
    const { tools } = await client.listTools()
    assert.equal(tools.length, 8)
    assert.ok(tools.some((tool) => tool.name === 'send_for_signature' && tool.annotations?.destructiveHint))
  })

  it('sends from HTML once for two identical calls, then reads its status', async () => {
    const args = {
      html: '<p>Lease</p><p>{{Signature;role=Tenant}}</p>',
      document_name: 'Lease',
      signers: [{ role: 'Tenant', email: 'tina@example.eu', name: 'Tina' }],
    }
    const sent = resultOf<{ submission_id: string; already_sent: boolean }>(
      await call('send_for_signature', args),
    )
    const again = resultOf<{ submission_id: string; already_sent: boolean }>(
      await call('send_for_signature', args),
    )
    assert.deepEqual(
      [sent.already_sent, again.already_sent, again.submission_id],
      [false, true, sent.submission_id],
    )
    const status = resultOf<{ status: string; signers: Array<{ email: string }> }>(
      await call('get_submission_status', { submission_id: sent.submission_id }),
    )
    assert.deepEqual([status.status, status.signers[0]!.email], ['sent', 'tina@example.eu'])
    await t.deps.requestLogs.flush()
    const logs = (
      await t.request(key, { method: 'GET', url: '/v1/request_logs?route=/v1/submissions/from_html' })
    ).json().data as Array<{ user_agent: string }>
    assert.equal(logs.length, 2)
    assert.ok(logs.every((l) => l.user_agent === 'paraph-mcp (stdio; send_for_signature)'))
  })

  it('a key the Paraph does not know: each call is a tool error 401 invalid_api_key', async () => {
    const { client: stranger } = await stdioClient({
      PARAPH_URL: base,
      PARAPH_API_KEY: 'sk_test_000000000000000000000000000000zz',
    })
    try {
      const result = (await stranger.callTool({ name: 'list_templates', arguments: {} })) as CallToolResult
      assert.equal(result.isError, true)
      const { error } = JSON.parse((result.content[0] as { text: string }).text)
      assert.deepEqual([error.status, error.code], [401, 'invalid_api_key'])
    } finally {
      await stranger.close()
    }
  })
})
