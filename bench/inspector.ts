// The V8 heap of a server started with --inspect, read over the DevTools protocol: the soak
// prints the heap beside the RSS, to tell a growing JavaScript heap from memory
// outside it (malloc arenas, SQLite's page cache, buffers). Reading the heap's size is cheap and
// moves nothing; a forced GC is asked for only where a figure of the live heap is wanted.
import { WebSocket } from 'undici'

export interface HeapFigures {
  /** Bytes of the V8 heap in use, garbage not yet collected included. */
  usedBytes: number
  /** Bytes V8 has reserved for its heap. */
  totalBytes: number
}

export interface HeapInspector {
  heap(): Promise<HeapFigures>
  /** A full garbage collection, then the heap: what is still reachable. */
  liveHeap(): Promise<HeapFigures>
  /** The value of `expression` evaluated in the server (its event-loop delay histogram). */
  evaluate(expression: string): Promise<unknown>
  close(): void
}

interface Reply {
  id?: number
  result?: Record<string, unknown>
  error?: { message: string }
}

export async function connectInspector(port: number): Promise<HeapInspector> {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as Array<{
    webSocketDebuggerUrl: string
  }>
  const url = targets[0]?.webSocketDebuggerUrl
  if (!url) throw new Error(`no inspector target on port ${port}`)
  const socket = new WebSocket(url)
  await new Promise((resolve, reject) => {
    socket.onopen = resolve
    socket.onerror = () => reject(new Error(`inspector ${url} refused the connection`))
  })
  const waiting = new Map<number, (reply: Reply) => void>()
  socket.onmessage = (event) => {
    const reply = JSON.parse(String(event.data)) as Reply
    if (reply.id !== undefined) waiting.get(reply.id)?.(reply)
  }
  let lastId = 0
  const call = (method: string, params?: Record<string, unknown>) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const id = ++lastId
      waiting.set(id, (reply) => {
        waiting.delete(id)
        if (reply.error) reject(new Error(`${method}: ${reply.error.message}`))
        else resolve(reply.result ?? {})
      })
      socket.send(JSON.stringify({ id, method, ...(params && { params }) }))
    })
  const heap = async (): Promise<HeapFigures> => {
    const result = await call('Runtime.getHeapUsage')
    return { usedBytes: Number(result.usedSize), totalBytes: Number(result.totalSize) }
  }
  return {
    heap,
    liveHeap: async () => {
      await call('HeapProfiler.collectGarbage')
      return heap()
    },
    evaluate: async (expression) => {
      const result = await call('Runtime.evaluate', { expression, returnByValue: true })
      const thrown = result.exceptionDetails as { text?: string } | undefined
      if (thrown) throw new Error(`evaluate: ${thrown.text ?? 'exception'}`)
      return (result.result as { value?: unknown } | undefined)?.value
    },
    close: () => socket.close(),
  }
}
