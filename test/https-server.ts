// Local servers for the SSRF guard's tests, on 127.0.0.1 only: one handler served over HTTPS (a
// self-signed certificate for localhost, pdf.test and 127.0.0.1) and plain HTTP, plus a TCP server
// that accepts and never completes a TLS handshake. Every slow or endless route is bounded.
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import { type AddressInfo, createServer as createTcpServer, type Socket } from 'node:net'
import type { TLSSocket } from 'node:tls'
import { generate } from 'selfsigned'

/** A PDF header and 200 KB of 0..250 repeating: a lost, doubled or reordered chunk shows. */
export const PDF_BYTES = Buffer.concat([
  Buffer.from('%PDF-1.7\n'),
  Buffer.from(Array.from({ length: 200_000 }, (_, i) => i % 251)),
])
/** What /big streams, without a Content-Length. */
const BIG_BYTES = 1024 * 1024

export interface RecordedRequest {
  method: string
  path: string
  host: string
  /** The TLS SNI name the client sent (undefined over plain HTTP or for IP literals). */
  servername: string | undefined
  body: string
}

export interface TestServers {
  /** https://127.0.0.1:port */
  https: string
  /** http://127.0.0.1:port */
  http: string
  httpsPort: number
  httpPort: number
  /** The certificate to pass as `ca`. */
  ca: string
  requests: RecordedRequest[]
  /** TCP connections accepted so far, on both servers. */
  connections(): number
  close(): Promise<void>
}

export async function startTestServers(): Promise<TestServers> {
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [
      { name: 'subjectAltName', altNames: [dns('localhost'), dns('pdf.test'), { type: 7, ip: '127.0.0.1' }] },
    ],
  })
  const requests: RecordedRequest[] = []
  let connections = 0
  const handler = (req: IncomingMessage, res: ServerResponse) =>
    record(req, requests).then((body) => route(req, res, body))
  const https = createHttpsServer({ key: pems.private, cert: pems.cert }, handler)
  const http = createHttpServer(handler)
  for (const server of [https, http]) server.on('connection', () => connections++)
  const [httpsPort, httpPort] = [await listen(https), await listen(http)]
  return {
    https: `https://127.0.0.1:${httpsPort}`,
    http: `http://127.0.0.1:${httpPort}`,
    httpsPort,
    httpPort,
    ca: pems.cert,
    requests,
    connections: () => connections,
    close: async () => {
      await Promise.all([stop(https), stop(http)])
    },
  }
}

/** Accepts TCP connections and says nothing: a TLS client waits for the server hello forever. */
export async function startSilentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>()
  const server = createTcpServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  const port = await listen(server)
  return {
    port,
    close: () => {
      for (const socket of sockets) socket.destroy()
      return new Promise((resolve) => server.close(() => resolve()))
    },
  }
}

/**
 * /pdf · /chain/N (N redirects, then "arrived") · /redirect?to=URL&status=3xx · /echo (method, headers,
 * body as JSON) · /trickle (a byte every 200 ms, 50 at most) · /big (1 MB, no Content-Length) ·
 * /declared-big (announces 100 MB, stalls) · /short (announces 1000 bytes, sends 100, hangs up)
 */
function route(req: IncomingMessage, res: ServerResponse, body: string): void {
  const url = new URL(req.url ?? '/', 'http://server')
  const chain = /^\/chain\/(\d+)$/.exec(url.pathname)
  if (chain) {
    const left = Number(chain[1])
    if (left === 0) res.end('arrived')
    else res.writeHead(302, { location: `/chain/${left - 1}` }).end()
  } else if (url.pathname === '/pdf') {
    res
      .writeHead(200, { 'content-type': 'application/pdf', 'content-length': PDF_BYTES.length })
      .end(PDF_BYTES)
  } else if (url.pathname === '/redirect') {
    // /redirect?to=<url>&status=<3xx>
    res
      .writeHead(Number(url.searchParams.get('status') ?? 302), {
        location: url.searchParams.get('to') ?? '/',
      })
      .end()
  } else if (url.pathname === '/echo') {
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ method: req.method, headers: req.headers, body }))
  } else if (url.pathname === '/trickle') {
    trickle(res, 200, 50)
  } else if (url.pathname === '/big') {
    stream(res, BIG_BYTES)
  } else if (url.pathname === '/declared-big') {
    // Announces 100 MB, sends a little, then stalls: only an early refusal ends this quickly.
    res.writeHead(200, { 'content-length': 100_000_000 }).write(Buffer.alloc(16))
    hold(res, 5_000)
  } else if (url.pathname === '/short') {
    // Promises 1000 bytes, sends 100 and hangs up: a truncated body must not pass for a whole one.
    res.writeHead(200, { 'content-length': 1000 }).write(Buffer.alloc(100), () => res.socket?.destroy())
  } else {
    res.writeHead(404).end()
  }
}

async function record(req: IncomingMessage, requests: RecordedRequest[]): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  const body = Buffer.concat(chunks).toString('utf8')
  const servername = (req.socket as TLSSocket).servername
  requests.push({
    method: req.method ?? '',
    path: req.url ?? '',
    host: req.headers.host ?? '',
    servername: typeof servername === 'string' ? servername : undefined,
    body,
  })
  return body
}

/** One byte every `everyMs`, at most `count` bytes, until the client goes away. */
function trickle(res: ServerResponse, everyMs: number, count: number): void {
  res.writeHead(200, { 'content-type': 'application/octet-stream' })
  let sent = 0
  const timer = setInterval(() => {
    res.write('x')
    if (++sent === count) res.end()
  }, everyMs)
  res.on('close', () => clearInterval(timer))
}

/** `total` bytes in 16 KB chunks, respecting back-pressure, stopping when the client goes away. */
function stream(res: ServerResponse, total: number): void {
  res.writeHead(200, { 'content-type': 'application/octet-stream' })
  let left = total
  const chunk = Buffer.alloc(16 * 1024, 1)
  const pump = () => {
    while (left > 0 && !res.destroyed) {
      left -= chunk.length
      if (!res.write(chunk)) return void res.once('drain', pump)
    }
    res.end()
  }
  pump()
}

function hold(res: ServerResponse, ms: number): void {
  const timer = setTimeout(() => res.socket?.destroy(), ms)
  res.on('close', () => clearTimeout(timer))
}

function dns(value: string) {
  return { type: 2 as const, value }
}

function listen(server: Server | ReturnType<typeof createTcpServer>): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port))
  })
}

function stop(server: Server): Promise<void> {
  server.closeAllConnections()
  return new Promise((resolve) => server.close(() => resolve()))
}
