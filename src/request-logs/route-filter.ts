// The `route` filter of GET /v1/request_logs as people write it (docs/request-logs.md#reading-them):
// an OpenAPI path (`/v1/submissions/{id}`, as the logs show it), or what a log line or a client
// shows — a method and a concrete path, `POST /v1/submissions` or `GET /v1/submissions/sub_123`
// (a whole URL and a query string are tolerated). A concrete path is resolved to the route that
// answers it, as the router would; a path no route answers filters on the path itself (the
// requests that got 404 on it).
import { fieldError } from '../errors.ts'
import { findRoute, type RegisteredRoute } from '../http/route-table.ts'
import { openApiPath } from './request-log-form.ts'

export interface RouteFilter {
  /** Only requests of this method. */
  method?: string
  /** Only requests answered by this route (OpenAPI path). */
  route?: string
  /** Only requests of this exact path (when no route answers it). */
  path?: string
}

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'])

const refuse = (problem: string) =>
  fieldError(
    'invalid_request',
    'route',
    `${problem}; write a path, after its method or not: \`POST /v1/submissions\`, \`GET /v1/submissions/sub_123\` or \`/v1/submissions/{id}\`.`,
  )

/** The path of what was written: a whole URL's path, without query or fragment. */
function pathOf(text: string): string {
  if (/^https?:\/\//i.test(text)) {
    try {
      return new URL(text).pathname
    } catch {
      throw refuse('not a valid URL')
    }
  }
  return text.replace(/[?#].*$/s, '')
}

export function parseRouteFilter(text: string, routes: readonly RegisteredRoute[]): RouteFilter {
  const match = /^([A-Za-z]+)\s+(\S.*)$/s.exec(text.trim())
  const method = match ? match[1]!.toUpperCase() : undefined
  if (method !== undefined && !METHODS.has(method)) throw refuse(`"${match![1]}" is not an HTTP method`)
  const path = pathOf(match ? match[2]!.trim() : text.trim())
  if (!path.startsWith('/') || /\s/.test(path)) throw refuse(`"${path}" is not a path`)
  const only = method === undefined ? {} : { method }
  // A template as the logs show it, or as Fastify writes it.
  if (path.includes('{')) return { ...only, route: path }
  if (path.includes('/:')) return { ...only, route: openApiPath(path) }
  const url = findRoute(routes, method === 'HEAD' ? 'GET' : method, path)
  return url === undefined ? { ...only, path } : { ...only, route: openApiPath(url) }
}
