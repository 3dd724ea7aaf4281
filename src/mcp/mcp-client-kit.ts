// Test kit of the MCP server's tests (docs/mcp.md): the MCP SDK's own client over Streamable HTTP
// with a Bearer key, and a tool result read as its structured content.
import assert from 'node:assert/strict'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'

/** A client of the SDK connected to `base`/mcp with this key. */
export async function mcpClient(base: string, key: string): Promise<Client> {
  const client = new Client({ name: 'paraph-test-agent', version: '1.0.0' })
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${key}`, 'user-agent': 'TestAgent/1.0' } },
  })
  await client.connect(transport)
  return client
}

/** A tool's structured result, asserted to be no tool error. */
export function resultOf<T = Record<string, unknown>>(result: CallToolResult): T {
  assert.notEqual(result.isError, true, JSON.stringify(result.content))
  assert.deepEqual(JSON.parse((result.content[0] as { text: string }).text), result.structuredContent)
  return result.structuredContent as T
}
