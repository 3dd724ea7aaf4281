// The SMTP server of the mail row, in the bench process: accepts every message, reads
// only its Message-ID, and notes when each arrived (epoch ms, the clock the children log with).
import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'

export interface Arrival {
  at: number
  messageId: string
}

export class SmtpSink {
  arrivals: Arrival[] = []
  #server: SMTPServer
  #waiter: { count: number; resolve: () => void } | null = null

  private constructor(server: SMTPServer) {
    this.#server = server
  }

  static async start(): Promise<SmtpSink> {
    let sink: SmtpSink | null = null
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, _session, done) {
        const chunks: Buffer[] = []
        stream.on('data', (chunk: Buffer) => chunks.push(chunk))
        stream.on('end', () => {
          const head = Buffer.concat(chunks).toString('latin1').split('\r\n\r\n', 1)[0] ?? ''
          sink?.arrived(/^Message-ID:\s*(<[^>]*>)/im.exec(head)?.[1] ?? '')
          done()
        })
      },
    })
    sink = new SmtpSink(server)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
    return sink
  }

  get url(): string {
    return `smtp://127.0.0.1:${(this.#server.server.address() as AddressInfo).port}`
  }

  private arrived(messageId: string): void {
    this.arrivals.push({ at: Date.now(), messageId })
    if (this.#waiter && this.distinct() >= this.#waiter.count) this.#waiter.resolve()
  }

  distinct(): number {
    return new Set(this.arrivals.map((a) => a.messageId)).size
  }

  /** Resolves once `count` distinct messages arrived; rejects after `deadlineMs`. */
  waitForDistinct(count: number, deadlineMs: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiter = null
        reject(new Error(`only ${this.distinct()} of ${count} messages arrived within ${deadlineMs} ms`))
      }, deadlineMs)
      this.#waiter = {
        count,
        resolve: () => {
          clearTimeout(timer)
          this.#waiter = null
          resolve()
        },
      }
      if (this.distinct() >= count) this.#waiter.resolve()
    })
  }

  reset(): void {
    this.arrivals = []
  }

  stop(): Promise<void> {
    return new Promise((resolve) => {
      this.#server.close(() => resolve())
      for (const connection of this.#server.connections) connection.close()
    })
  }
}
