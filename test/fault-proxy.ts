// An HTTP proxy in front of a real Paraph that injects the faults a client must survive (the SDKs'
// retries, docs/sdks.md): each request is passed on to Paraph unless a planned fault matches it.
// Faults are planned by the test in-process (`plan`) or, for tests in another language (the Python
// SDK's), over HTTP on the proxy itself: `POST /__faults` with a JSON fault, `GET /__requests` for
// the log of what reached the proxy, `DELETE /__faults` to clear both.
//
// A fault's `when`:
// - `after`: the request reaches Paraph (a creation is made), then the client gets the fault's
//   status instead of Paraph's answer — the answer lost on the way back;
// - `before`: the client gets the fault's status and Paraph never sees the request;
// - `reset`: as `after`, but the connection is destroyed instead of answered (a network error).
import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Fault {
  /** Matches the request line's method, if given. */
  method?: string
  /** A regular expression (source text) the request's path must match. */
  path: string
  when: 'after' | 'before' | 'reset'
  /** The status answered instead (not for `reset`); 500 by default. */
  status?: number
  /** The error code of that answer's envelope; `injected_fault` by default. */
  code?: string
  /** Headers of that answer, e.g. `{"retry-after": "1"}`. */
  headers?: Record<string, string>
  /** How many matching requests it applies to; 1 by default. */
  times?: number
}

export interface SeenRequest {
  method: string
  path: string
  idempotencyKey: string | null
  /** Epoch ms at which the proxy received it. */
  at: number
  /** What the client got: Paraph's status, the fault's, or 'reset'. */
  outcome: number | 'reset'
}

export class FaultProxy {
  readonly requests: SeenRequest[] = []
  #faults: Array<Fault & { left: number }> = []
  readonly #target: URL
  readonly #server: Server

  private constructor(target: string) {
    this.#target = new URL(target)
    this.#server = createServer((req, res) => void this.#handle(req, res))
  }

  /** Listens on 127.0.0.1 (a free port) in front of `target` (Paraph's base URL). */
  static async start(target: string): Promise<FaultProxy> {
    const proxy = new FaultProxy(target)
    await new Promise<void>((resolve) => proxy.#server.listen(0, '127.0.0.1', resolve))
    return proxy
  }

  get url(): string {
    const { port } = this.#server.address() as AddressInfo
    return `http://127.0.0.1:${port}`
  }

  plan(fault: Fault): void {
    this.#faults.push({ ...fault, left: fault.times ?? 1 })
  }

  clear(): void {
    this.#faults = []
    this.requests.length = 0
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections()
    await new Promise<void>((resolve) => this.#server.close(() => resolve()))
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readAll(req)
    const path = req.url ?? '/'
    if (path.startsWith('/__')) return this.#control(req.method ?? 'GET', path, body, res)
    const fault = this.#take(req.method ?? 'GET', path)
    const seen: SeenRequest = {
      method: req.method ?? 'GET',
      path,
      idempotencyKey: headerOf(req, 'idempotency-key'),
      at: Date.now(),
      outcome: 0,
    }
    this.requests.push(seen)
    if (fault?.when === 'before') return answerFault(res, fault, seen)
    let upstream: { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }
    try {
      upstream = await this.#forward(req, body)
    } catch (error) {
      seen.outcome = 502
      res.writeHead(502, { 'content-type': 'text/plain' }).end(`fault proxy: ${String(error)}`)
      return
    }
    if (fault?.when === 'after') return answerFault(res, fault, seen)
    if (fault?.when === 'reset') {
      seen.outcome = 'reset'
      res.socket?.destroy()
      return
    }
    seen.outcome = upstream.status
    const headers = { ...upstream.headers }
    delete headers['transfer-encoding']
    delete headers.connection
    res.writeHead(upstream.status, headers).end(upstream.body)
  }

  #take(method: string, path: string): Fault | undefined {
    const pathOnly = path.split('?')[0] ?? path
    const fault = this.#faults.find(
      (f) => f.left > 0 && (!f.method || f.method === method) && new RegExp(f.path).test(pathOnly),
    )
    if (fault) fault.left--
    return fault
  }

  #forward(req: IncomingMessage, body: Buffer) {
    const headers = { ...req.headers, host: this.#target.host }
    return new Promise<{ status: number; headers: IncomingMessage['headers']; body: Buffer }>(
      (resolve, reject) => {
        const out = request(
          new URL(req.url ?? '/', this.#target),
          { method: req.method, headers },
          (answer) => {
            void readAll(answer).then(
              (bytes) => resolve({ status: answer.statusCode ?? 502, headers: answer.headers, body: bytes }),
              reject,
            )
          },
        )
        out.on('error', reject)
        out.end(body)
      },
    )
  }

  #control(method: string, path: string, body: Buffer, res: ServerResponse): void {
    const json = (status: number, value: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value))
    }
    if (path === '/__faults' && method === 'POST') {
      this.plan(JSON.parse(body.toString('utf8')) as Fault)
      json(201, { planned: true })
    } else if (path === '/__faults' && method === 'DELETE') {
      this.clear()
      json(200, { cleared: true })
    } else if (path === '/__requests' && method === 'GET') json(200, this.requests)
    else json(404, { error: `fault proxy: no control route ${method} ${path}` })
  }
}

function answerFault(res: ServerResponse, fault: Fault, seen: SeenRequest): void {
  const status = fault.status ?? 500
  seen.outcome = status
  res.writeHead(status, { 'content-type': 'application/json', ...fault.headers }).end(
    JSON.stringify({
      error: {
        type: 'api_error',
        code: fault.code ?? 'injected_fault',
        message: `Fault injected by the test proxy (${status}).`,
      },
    }),
  )
}

function headerOf(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name]
  return typeof value === 'string' ? value : null
}

function readAll(stream: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    stream.on('data', (c: Buffer) => chunks.push(c))
    stream.on('end', () => resolve(Buffer.concat(chunks)))
    stream.on('error', reject)
  })
}
