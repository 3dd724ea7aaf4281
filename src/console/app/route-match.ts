// Matching a console path against a route pattern: pure, so it is unit-tested in Node.

/** `/submissions/:id` against `/submissions/sub_1` → `{ id: 'sub_1' }`; null when it does not match. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/')
  const got = path.split('/')
  if (want.length !== got.length) return null
  const params: Record<string, string> = {}
  for (let i = 0; i < want.length; i++) {
    const part = want[i]!
    const value = got[i]!
    if (part.startsWith(':')) {
      if (value === '') return null
      params[part.slice(1)] = safeDecode(value)
    } else if (part !== value) return null
  }
  return params
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value)
  } catch {
    return value
  }
}
