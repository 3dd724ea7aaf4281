// A loopback HTTP server handing out one PDF, for creation by `pdf_url` (Paraph started with
// ALLOW_PRIVATE_NETWORK_URLS=true, which lets http:// and 127.0.0.1 through its SSRF guard).
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface PdfServer {
  url: string
  /** Responses begun so far. */
  served(): number
  close(): Promise<void>
}

export async function servePdf(bytes: Uint8Array, name = 'contract.pdf'): Promise<PdfServer> {
  const body = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let served = 0
  const server = createServer((request, response) => {
    if (request.url !== `/${name}`) {
      response.writeHead(404).end()
      return
    }
    served++
    response.writeHead(200, { 'content-type': 'application/pdf', 'content-length': body.length })
    response.end(body)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/${name}`,
    served: () => served,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
