// Calls to the signer interface (docs/api.md#the-signers-form) under this page's own credential
// path: the page lives at /s/{slug} or /embed/{jwt}, and every call goes to that path plus the
// action.
export class ApiFailure extends Error {
  readonly status: number
  readonly code: string
  constructor(status: number, code: string, message: string) {
    super(message)
    this.status = status
    this.code = code
  }
}

const base = window.location.pathname.replace(/\/+$/, '')

/** Set after the e-mail code is verified in embed mode, where a framed page gets no cookie. */
let session: string | null = null
export const SESSION_HEADER = 'Paraph-Signer-Session'

export function keepSession(value: string | null | undefined): void {
  if (value) session = value
}

export function pageImageUrl(document: number, page: number, width: number): string {
  return `${base}/pages/${document}/${page}?w=${width}`
}

/**
 * `keepalive`: the request outlives the page (a save as the page is hidden or closed); the browser
 * takes such a body only up to 64 KiB.
 */
export async function call<T>(
  method: 'GET' | 'POST' | 'PATCH',
  action: string,
  body?: unknown,
  options: { keepalive?: boolean } = {},
): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' }
  if (body !== undefined) headers['content-type'] = 'application/json'
  if (session) headers[SESSION_HEADER] = session
  let response: Response
  try {
    response = await fetch(`${base}/${action}`, {
      method,
      headers,
      credentials: 'same-origin',
      cache: 'no-store',
      ...(options.keepalive ? { keepalive: true } : {}),
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    })
  } catch {
    throw new ApiFailure(0, 'network', '')
  }
  const text = await response.text()
  let json: unknown = null
  try {
    json = text ? JSON.parse(text) : null
  } catch {
    json = null
  }
  if (!response.ok) {
    const error = (json as { error?: { code?: string; message?: string } } | null)?.error
    throw new ApiFailure(response.status, error?.code ?? 'unknown', error?.message ?? '')
  }
  return json as T
}
