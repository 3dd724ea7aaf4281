// A local HTTPS server (test certificate for 127.0.0.1) serving PDFs for the PDF-URL tests of the
// app: documents by path, redirects, errors and an oversize body. Loopback only, every body bounded.
import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { generate } from 'selfsigned'

export interface PdfServer {
  base: string
  ca: string
  /** Serves `bytes` at `path`. */
  serve(path: string, bytes: Uint8Array, contentType?: string): void
  close(): Promise<void>
}

const BIG = 51 * 1024 * 1024

export async function startPdfServer(): Promise<PdfServer> {
  const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  })
  const files = new Map<string, { bytes: Uint8Array; type: string }>()
  const server: Server = createServer({ key: pems.private, cert: pems.cert }, (req, res) => {
    const path = (req.url ?? '/').split('?')[0]!
    const hops = /^\/redirect\/(\d+)\/(.+)$/.exec(path)
    if (hops) {
      const left = Number(hops[1])
      res.writeHead(302, { location: left > 1 ? `/redirect/${left - 1}/${hops[2]}` : `/${hops[2]}` }).end()
      return
    }
    if (path === '/big') {
      // Claims nothing about its length and streams past the 50 MB cap.
      res.writeHead(200, { 'content-type': 'application/pdf' })
      const chunk = Buffer.alloc(1024 * 1024, 0x20)
      chunk.write('%PDF-1.7\n')
      let sent = 0
      const pump = () => {
        while (sent < BIG) {
          sent += chunk.length
          if (!res.write(chunk)) return void res.once('drain', pump)
        }
        res.end()
      }
      res.on('close', () => {
        sent = BIG
      })
      pump()
      return
    }
    const file = files.get(path)
    if (!file) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not here')
    res.writeHead(200, { 'content-type': file.type, 'content-length': file.bytes.length }).end(file.bytes)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    base: `https://127.0.0.1:${port}`,
    ca: pems.cert,
    serve: (path, bytes, type = 'application/pdf') => void files.set(path, { bytes, type }),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
