// An error answered while the client is still sending its body (a 413 for a body over the
// route's limit, a 401 or 429 before a large upload) must reach the client. Closing a socket whose
// receive buffer still holds unread bytes makes the kernel send a reset, and a client still writing
// (or not yet reading) loses the answer: `EPIPE`, `ECONNRESET`, undici's "fetch failed". So the
// rest of the body is read and thrown away first, within a bound; past it, the answer goes anyway
// and the connection closes (a client sending more than that has stopped listening to limits).
import type { IncomingMessage } from 'node:http'

export interface DrainBounds {
  maxBytes: number
  maxMs: number
}

/**
 * Reads and discards what is left of the request's body. Resolves true once it has all arrived
 * (at once when it already had), false when a bound was reached or the stream failed.
 */
export function drainRequestBody(raw: IncomingMessage, bounds: DrainBounds): Promise<boolean> {
  // An in-process request (inject) has no `complete`; a real one is complete once its body has ended.
  if (raw.complete !== false || raw.readableEnded || raw.destroyed) return Promise.resolve(true)
  return new Promise((resolve) => {
    let received = 0
    const finish = (ended: boolean) => {
      clearTimeout(timer)
      raw.off('data', onData)
      raw.off('end', onEnd)
      raw.off('error', onFail)
      raw.off('close', onClose)
      resolve(ended)
    }
    const onData = (chunk: Buffer) => {
      received += chunk.length
      if (received > bounds.maxBytes) finish(false)
    }
    const onEnd = () => finish(true)
    const onFail = () => finish(false)
    const onClose = () => finish(raw.complete)
    const timer = setTimeout(onFail, bounds.maxMs)
    raw.on('data', onData)
    raw.once('end', onEnd)
    raw.once('error', onFail)
    raw.once('close', onClose)
    raw.resume()
  })
}
