// The webhook receiver of the webhook rows, in the bench process: answers 200 at once
// to every POST and notes when each arrived (epoch ms, the clock the children log with), on which
// path, with which event id and submission id.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface HookArrival {
  at: number
  path: string
  eventId: string
  submissionId: string
  type: string
}

export class HookSink {
  arrivals: HookArrival[] = []
  #server: Server
  #waiters: Array<() => void> = []

  private constructor(server: Server) {
    this.#server = server
  }

  static async start(): Promise<HookSink> {
    const sink: HookSink = new HookSink(
      createServer({ keepAlive: true }, (req, res) => {
        const chunks: Buffer[] = []
        req.on('data', (chunk: Buffer) => chunks.push(chunk))
        req.on('end', () => {
          const at = Date.now()
          res.writeHead(200).end()
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
            id: string
            type: string
            data: { object: { id: string } }
          }
          sink.arrivals.push({
            at,
            path: req.url ?? '',
            eventId: body.id,
            submissionId: body.data.object.id,
            type: body.type,
          })
          for (const wake of sink.#waiters.splice(0)) wake()
        })
      }),
    )
    await new Promise<void>((resolve) => sink.#server.listen(0, '127.0.0.1', resolve))
    return sink
  }

  url(path: string): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}${path}`
  }

  reset(): void {
    this.arrivals = []
  }

  /** Distinct (path, event) pairs received so far: a repeat of a delivery counts once. */
  distinct(): number {
    return new Set(this.arrivals.map((a) => `${a.path} ${a.eventId}`)).size
  }

  async waitFor(test: () => boolean, deadlineMs: number): Promise<void> {
    const deadline = Date.now() + deadlineMs
    while (!test()) {
      if (Date.now() > deadline)
        throw new Error(`webhook sink: ${this.arrivals.length} arrivals at the deadline`)
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 100)
        this.#waiters.push(() => {
          clearTimeout(timer)
          resolve()
        })
      })
    }
  }

  async stop(): Promise<void> {
    this.#server.closeAllConnections()
    await new Promise<void>((resolve) => this.#server.close(() => resolve()))
  }
}
