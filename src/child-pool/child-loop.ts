// The child's side of child-pool.ts's line protocol: say ready, answer each request line in order
// (the pool sends one at a time anyway), and exit once stdin ends — the server exited or closed
// the pool, and a child without a server has no use. Imports only node built-ins, so each child's
// bundle stays its own work plus this.
import { createInterface } from 'node:readline'
import type { ReadyMessage } from './child-pool.ts'

export function serveRequests<Request>(answer: (request: Request) => Promise<object>): void {
  // Answers go on stdout, so the libraries a child runs must not write there: pdf-lib reports each
  // damaged object it skips with console.warn, and FlateStream logs with console.log, which would
  // corrupt the answers; a hostile file must not flood either.
  console.warn = () => {}
  console.log = () => {}
  let pending = Promise.resolve()
  const requests = createInterface({ input: process.stdin })
  requests.on('line', (line) => {
    pending = pending.then(async () => {
      const message = await answer(JSON.parse(line) as Request)
      process.stdout.write(`${JSON.stringify(message)}\n`)
    })
  })
  requests.on('close', () => {
    void pending.then(() => process.exit(0))
  })
  const ready: ReadyMessage = { ready: true }
  process.stdout.write(`${JSON.stringify(ready)}\n`)
}
