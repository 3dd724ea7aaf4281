// The routes one app registered (method and Fastify url), and which of them answers a concrete
// method and path as Fastify's router would pick it: per segment, left to right, a static segment
// before a parameter before a wildcard (`/v1/submissions/from_pdf` before `/v1/submissions/:id`).
// For a handler that must name the route of a path a person pasted (the request logs' route filter,
// docs/request-logs.md#reading-them).

export interface RegisteredRoute {
  readonly method: string
  /** As registered: `/v1/submissions/:id`. */
  readonly url: string
}

const TABLES = new WeakMap<object, RegisteredRoute[]>()

/** The table of one app, filled by registerRoute; the same array for the app's whole life. */
export function routeTableOf(app: object): RegisteredRoute[] {
  let table = TABLES.get(app)
  if (!table) {
    table = []
    TABLES.set(app, table)
  }
  return table
}

/** 2 static, 1 parameter, 0 wildcard, per segment of `url` when it matches `segments`; else undefined. */
function rank(url: string, segments: string[]): number[] | undefined {
  const pattern = url.split('/')
  const ranks: number[] = []
  for (let i = 0; i < pattern.length; i++) {
    const part = pattern[i]!
    if (part === '*') return [...ranks, 0]
    const segment = segments[i]
    if (segment === undefined) return undefined
    if (part.startsWith(':')) {
      if (segment === '') return undefined
      ranks.push(1)
    } else if (part === segment) ranks.push(2)
    else return undefined
  }
  return pattern.length === segments.length ? ranks : undefined
}

function higher(a: number[], b: number[]): boolean {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! > b[i]!
  return a.length > b.length
}

/**
 * The url of the route answering `method` and `path` (a path without its query), or undefined when
 * none does. Without a method: the most specific route among every method's.
 */
export function findRoute(
  table: readonly RegisteredRoute[],
  method: string | undefined,
  path: string,
): string | undefined {
  const segments = path.split('/')
  let best: { url: string; ranks: number[] } | undefined
  for (const route of table) {
    if (method !== undefined && route.method !== method) continue
    const ranks = rank(route.url, segments)
    if (ranks && (!best || higher(ranks, best.ranks))) best = { url: route.url, ranks }
  }
  return best?.url
}
