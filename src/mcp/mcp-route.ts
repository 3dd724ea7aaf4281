// POST /mcp — docs/mcp.md#http: the MCP server over Streamable HTTP, served by `paraph serve` itself.
// Stateless: each POST is one exchange with a server made for it (no session to keep, so any API
// process answers any request), answered as JSON rather than an event stream. The request is
// admitted like any API call — a Bearer key, the same key cache, a request log — and counted in the
// key's own `mcp` bucket (RATE_LIMIT_MCP); the tools then call the app's routes with the same key
// (inject-caller.ts). GET and DELETE (a stream or a session to end) answer 405, as the MCP spec
// asks of a server that offers neither. Not part of the REST API's OpenAPI description.
import type { IncomingHttpHeaders } from 'node:http'
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import type { FastifyInstance } from 'fastify'
import { Type } from 'typebox'
import { type AnyRoute, defineRoute } from '../http/define-route.ts'
import { LIMITS } from '../limits.ts'
import { injectCaller } from './inject-caller.ts'
import { createMcpServer } from './mcp-server.ts'

export const MCP_PATH = '/mcp'

/** The request headers the transport reads: content negotiation and the MCP protocol's own. */
const FORWARDED = ['accept', 'content-type', 'mcp-protocol-version', 'mcp-session-id'] as const

function webHeaders(headers: IncomingHttpHeaders): Headers {
  const out = new Headers()
  for (const name of FORWARDED) {
    const value = headers[name]
    if (typeof value === 'string') out.set(name, value)
  }
  return out
}

const notAllowed = (method: 'GET' | 'DELETE') =>
  defineRoute({
    operationId: method === 'GET' ? 'openMcpStream' : 'endMcpSession',
    method,
    url: MCP_PATH,
    summary: `${method} /mcp: not offered (stateless MCP server)`,
    tag: 'MCP',
    auth: 'none',
    produces: 'application/json',
    schema: { response: { 200: Type.String() } },
    errors: [],
    handler: ({ reply }) => {
      reply.code(405)
      reply.header('allow', 'POST')
      return JSON.stringify({
        jsonrpc: '2.0',
        error: {
          code: -32000,
          message: 'Method not allowed: this MCP server is stateless; POST each message.',
        },
        id: null,
      })
    },
  })

/** The MCP endpoint's routes; `app` is what the tools call (its own routes, injected). */
export function mcpRoutes(app: FastifyInstance): AnyRoute[] {
  const post = defineRoute({
    operationId: 'postMcpMessage',
    method: 'POST',
    url: MCP_PATH,
    summary: 'An MCP JSON-RPC message or batch (Streamable HTTP)',
    tag: 'MCP',
    auth: 'mcp',
    // verify_pdf carries a PDF as base64: the API's own JSON limit for POST /v1/verify.
    bodyLimit: LIMITS.pdfBytes,
    produces: 'application/json',
    schema: { body: Type.Unknown(), response: { 200: Type.String() } },
    errors: [],
    handler: async ({ body, headers, ip, userAgent, reply }, deps) => {
      const api = injectCaller(app, { authorization: headers.authorization ?? '', ip, userAgent })
      const server = createMcpServer(api)
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      })
      await server.connect(transport)
      try {
        const request = new Request(`${deps.config.publicUrl}${MCP_PATH}`, {
          method: 'POST',
          headers: webHeaders(headers),
        })
        const response = await transport.handleRequest(request, { parsedBody: body })
        reply.code(response.status)
        const type = response.headers.get('content-type')
        if (type) reply.header('content-type', type)
        return await response.text()
      } finally {
        await server.close()
      }
    },
  })
  return [post, notAllowed('GET'), notAllowed('DELETE')]
}
