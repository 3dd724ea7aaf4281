// Content negotiation where a person's browser and a program reach one path (GET /, which
// redirects a browser to the console: docs/console.md): a browser names `text/html` in Accept, a
// program JSON or `*/*`. HTML is preferred only when named (or as XHTML) with a weight above zero
// and above JSON's; a tie, a wildcard or no header keeps the JSON answer programs rely on
// (RFC 9110 §12.5.1).

/** The weight of each media range in an Accept header (`q`, 1 when absent, 0 when unreadable). */
function weights(accept: string): Map<string, number> {
  const out = new Map<string, number>()
  for (const range of accept.split(',')) {
    const [type = '', ...params] = range.split(';').map((part) => part.trim().toLowerCase())
    const q = params.find((p) => p.startsWith('q='))
    const weight = q === undefined ? 1 : Number(q.slice(2))
    const valid = Number.isFinite(weight) && weight >= 0 && weight <= 1 ? weight : 0
    out.set(type, Math.max(out.get(type) ?? 0, valid))
  }
  return out
}

/** Whether the client asks for an HTML page rather than JSON (a browser's navigation). */
export function prefersHtml(accept: string | undefined): boolean {
  if (!accept) return false
  const w = weights(accept)
  const html = Math.max(w.get('text/html') ?? 0, w.get('application/xhtml+xml') ?? 0)
  return html > 0 && html > (w.get('application/json') ?? 0)
}
