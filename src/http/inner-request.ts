// An API call made by the service itself on behalf of a caller already counted (docs/mcp.md#rate-limits):
// the MCP endpoint's tools call the app's own routes with `app.inject`, carrying the caller's
// Authorization header, so auth, scopes, idempotency and request logs apply as to any client. The
// MCP request was counted once in the key's `mcp` bucket; its inner calls are not counted again in
// the key's test or live bucket. They are told apart by the class of the request object
// light-my-request builds (its `Request` option), which only code in this process can choose: no
// header, address or body a client sends can make a request from the network one of them.
import { Readable } from 'node:stream'
import type { FastifyRequest } from 'fastify'

/** The base class of inner requests: pass it as `Request` to `app.inject`. */
export class InnerRequest extends Readable {}

/** Whether this request was injected by the service itself (never true for one from a socket). */
export function isInnerRequest(request: FastifyRequest): boolean {
  return request.raw instanceof InnerRequest
}
