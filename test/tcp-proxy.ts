// A TCP proxy between Paraph and a service (docs/security.md#crash-safe-jobs: no toxiproxy
// here): `down()` closes the listener and cuts every connection through it, as a database restart
// or a network failure does to the clients; `up()` listens again on the same port. The shared
// PostgreSQL itself is never stopped.

import type { AddressInfo } from 'node:net'
import { connect, createServer, type Server, type Socket } from 'node:net'

export class TcpProxy {
  readonly #target: { host: string; port: number }
  readonly #sockets = new Set<Socket>()
  #server: Server | null = null
  port = 0

  constructor(target: { host: string; port: number }) {
    this.#target = target
  }

  /** Listens (on a free port the first time, on the same port afterwards). */
  async up(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(this.#target)
      for (const socket of [client, upstream]) {
        this.#sockets.add(socket)
        socket.on('close', () => this.#sockets.delete(socket))
        socket.on('error', () => {
          client.destroy()
          upstream.destroy()
        })
      }
      client.pipe(upstream)
      upstream.pipe(client)
    })
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(this.port, '127.0.0.1', () => resolve())
    })
    this.port = (server.address() as AddressInfo).port
    this.#server = server
  }

  /** Refuses new connections and resets every open one. */
  async down(): Promise<void> {
    const server = this.#server
    this.#server = null
    for (const socket of this.#sockets) socket.resetAndDestroy()
    this.#sockets.clear()
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()))
  }
}
