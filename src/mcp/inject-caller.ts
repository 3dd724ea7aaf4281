// The HTTP transport's way to call the API (docs/mcp.md#how-tools-call-the-api): the app's own
// routes through `app.inject`, with the MCP request's Authorization header, client address and
// User-Agent, so each call is admitted, scoped, made idempotent and logged as any client's. The
// requests are built on InnerRequest: the MCP request was counted in the key's `mcp` bucket, its
// inner calls are not counted again (http/inner-request.ts).
import type { FastifyInstance } from 'fastify'
import { InnerRequest } from '../http/inner-request.ts'
import { type ApiCaller, toolUserAgent } from './api-caller.ts'

/** The MCP request's caller, as its inner calls present themselves. */
export interface McpCaller {
  authorization: string
  ip: string
  userAgent: string | undefined
}

export function injectCaller(app: FastifyInstance, caller: McpCaller): ApiCaller {
  return {
    async call(tool, { method, path, body, idempotencyKey }) {
      const headers: Record<string, string> = {
        authorization: caller.authorization,
        'user-agent': toolUserAgent('http', tool, caller.userAgent),
      }
      if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey
      if (body !== undefined) headers['content-type'] = 'application/json'
      const response = await app.inject({
        method,
        url: path,
        headers,
        remoteAddress: caller.ip,
        Request: InnerRequest,
        ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
      })
      const text = response.body
      return {
        status: response.statusCode,
        body: text === '' ? null : JSON.parse(text),
        replayed: response.headers['idempotent-replayed'] === 'true',
      }
    },
  }
}
