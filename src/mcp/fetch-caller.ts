// The stdio transport's way to call the API (docs/mcp.md#how-tools-call-the-api): `paraph mcp` is a
// client of a running Paraph, over HTTP with fetch, the key from PARAPH_API_KEY. Its calls are
// counted in the key's test or live bucket like any client's: this process runs on the agent's
// machine, beside nothing of the service's.
import { type ApiCaller, toolUserAgent } from './api-caller.ts'

export interface FetchCallerOptions {
  /** The Paraph to call, without `/v1` (PARAPH_URL). */
  baseUrl: string
  apiKey: string
}

export function fetchCaller({ baseUrl, apiKey }: FetchCallerOptions): ApiCaller {
  return {
    async call(tool, { method, path, body, idempotencyKey }) {
      const headers: Record<string, string> = {
        authorization: `Bearer ${apiKey}`,
        'user-agent': toolUserAgent('stdio', tool),
        accept: 'application/json',
      }
      if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey
      if (body !== undefined) headers['content-type'] = 'application/json'
      const response = await fetch(`${baseUrl}${path}`, {
        method,
        headers,
        redirect: 'error',
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      })
      const text = await response.text()
      return {
        status: response.status,
        body: text === '' ? null : JSON.parse(text),
        replayed: response.headers.get('idempotent-replayed') === 'true',
      }
    },
  }
}
