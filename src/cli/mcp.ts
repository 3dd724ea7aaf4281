// `paraph mcp` — docs/mcp.md#stdio: the MCP server over stdio for an agent on this machine, a client
// of a running Paraph (PARAPH_URL, else PUBLIC_URL, else http://127.0.0.1:8080) with the key in
// PARAPH_API_KEY. Standard output carries the protocol only: anything to say goes to standard error.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { ConfigError, readMcpClientConfig } from '../config.ts'
import { fetchCaller } from '../mcp/fetch-caller.ts'
import { createMcpServer } from '../mcp/mcp-server.ts'
import { CliError } from './context.ts'

function clientConfig() {
  try {
    return readMcpClientConfig()
  } catch (error) {
    if (error instanceof ConfigError) throw new CliError(error.message)
    throw error
  }
}

/** Serves until the agent closes standard input. */
export async function mcpCommand(): Promise<void> {
  const { url, apiKey } = clientConfig()
  const server = createMcpServer(fetchCaller({ baseUrl: url, apiKey }))
  const transport = new StdioServerTransport()
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve
    process.stdin.once('end', resolve)
  })
  await server.connect(transport)
  console.error(`paraph mcp: serving MCP on stdio for ${url}`)
  await closed
  await server.close()
}
