// The METRICS_LISTEN listener (docs/operations.md#metrics): a bare node:http server apart from the
// API's Fastify instance, so a scrape never passes through the API's hooks, limits or access log,
// and the port can stay on an internal network. GET /metrics only; anything else is 404.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { FastifyBaseLogger } from 'fastify'
import type { Registry } from 'prom-client'

export interface MetricsServer {
  /** `http://HOST:PORT` actually bound (PORT 0 picks one). */
  address: string
  close(): Promise<void>
}

function answer(registry: Registry, logger: FastifyBaseLogger) {
  return (request: IncomingMessage, response: ServerResponse) => {
    const path = (request.url ?? '').split('?')[0]
    if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found\n')
      return
    }
    registry.metrics().then(
      (text) => {
        response.writeHead(200, { 'content-type': registry.contentType })
        response.end(request.method === 'HEAD' ? undefined : text)
      },
      (error: unknown) => {
        logger.error({ err: error }, 'metrics: the registry could not be read')
        response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('Metrics unavailable\n')
      },
    )
  }
}

/** Listens on `host:port`; rejects when the address cannot be bound (the process then stops). */
export function startMetricsServer(
  listen: { host: string; port: number },
  registry: Registry,
  logger: FastifyBaseLogger,
): Promise<MetricsServer> {
  const server = createServer(answer(registry, logger))
  // A scraper that keeps its connection open must not hold the process's shutdown.
  server.keepAliveTimeout = 5000
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(listen.port, listen.host, () => {
      server.off('error', reject)
      const { address, port, family } = server.address() as AddressInfo
      const host = family === 'IPv6' ? `[${address}]` : address
      resolve({
        address: `http://${host}:${port}`,
        close: () =>
          new Promise((done) => {
            server.close(() => done())
            server.closeAllConnections()
          }),
      })
    })
  })
}
