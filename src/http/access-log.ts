// One line per answered request, in the logger's own format (pino's: level, time, pid, hostname,
// the fields, msg), written straight to the logger's destination.
//
// Why not logger.info(fields, 'request'): pino serializes a line by walking the object and adding
// one small string at a time, and the batch writer then has to flatten that deep tree of pieces;
// together that was 6–7 µs of a GET /v1/health's ~80 (measured with perf). This line has a fixed
// shape, so it is built with one template. It holds no secret by construction (ids, method,
// route, status, duration), which is why it can skip pino's redaction.
import { hostname } from 'node:os'

export interface AccessLogEntry {
  requestId: string
  method: string
  /** The route's URL pattern, or null when no route matched. */
  route: string | null
  status: number
  ms: number
  /** Absent when the request carried no valid key. */
  keyId?: string | undefined
  accountId?: string | undefined
}

export interface LineDestination {
  write(line: string): unknown
}

/** pino's number for the level these lines are written at (info). */
export const ACCESS_LOG_LEVEL = 30

export class AccessLog {
  readonly #destination: LineDestination
  readonly #enabled: boolean
  readonly #now: () => number
  readonly #host: string

  /**
   * `levelValue` is the logger's threshold (pino's levelVal): below info nothing is written.
   * `now` gives the line's time in epoch milliseconds, like pino's own lines (log time, not the
   * service's injected clock).
   */
  constructor(destination: LineDestination, levelValue: number, now: () => number = Date.now) {
    this.#destination = destination
    this.#enabled = levelValue <= ACCESS_LOG_LEVEL
    this.#now = now
    this.#host = `,"pid":${process.pid},"hostname":${JSON.stringify(hostname())}`
  }

  write(entry: AccessLogEntry): void {
    if (!this.#enabled) return
    const route = entry.route === null ? 'null' : jsonString(entry.route)
    const key = entry.keyId === undefined ? '' : `,"key_id":${jsonString(entry.keyId)}`
    const account = entry.accountId === undefined ? '' : `,"account_id":${jsonString(entry.accountId)}`
    this.#destination.write(
      `{"level":${ACCESS_LOG_LEVEL},"time":${this.#now()}${this.#host},"request_id":${jsonString(entry.requestId)},"method":${jsonString(entry.method)},"route":${route},"status":${entry.status},"ms":${entry.ms}${key}${account},"msg":"request"}\n`,
    )
  }
}

/**
 * A string as JSON. The fields here are ids, methods and route patterns: printable ASCII without
 * quotes or backslashes, which need no escaping, and checking that in JavaScript is cheaper than a
 * call into JSON.stringify (a C++ builtin) for each of them. Anything else goes through it.
 */
export function jsonString(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code < 0x20 || code > 0x7e || code === 0x22 || code === 0x5c) return JSON.stringify(text)
  }
  return `"${text}"`
}
