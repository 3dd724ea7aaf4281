// How a tool reaches the API (docs/mcp.md#how-tools-call-the-api): one tool implementation, two ways
// to call. The HTTP transport injects into the app's own routes (inject-caller.ts), `paraph mcp`
// fetches the Paraph it is pointed at (fetch-caller.ts); both carry the caller's key, so auth,
// scopes, limits, idempotency and request logs apply as to any client.

/** One API request, as a tool makes it. */
export interface ApiCall {
  method: 'GET' | 'POST' | 'DELETE'
  /** The path and query, `/v1/submissions/sub_…`. */
  path: string
  /** A JSON body. */
  body?: unknown
  /** Sent as `Idempotency-Key` (docs/api.md#idempotency). */
  idempotencyKey?: string
}

/** The API's answer: its status and parsed JSON body. */
export interface ApiAnswer {
  status: number
  body: unknown
  /** `Idempotent-Replayed: true`: the answer of an earlier identical call (docs/api.md#idempotency). */
  replayed: boolean
}

export interface ApiCaller {
  /** `tool` names the calling tool in the request's User-Agent (its request log says which). */
  call(tool: string, request: ApiCall): Promise<ApiAnswer>
}

/** The API's error envelope (docs/api.md#errors), as a tool error carries it. */
export interface ApiFailure {
  status: number
  type: string
  code: string
  message: string
  param?: string
}

/** A refusal of the API, or of the tool's own argument check: an MCP tool error, never a crash. */
export class ToolFailure extends Error {
  readonly failure: ApiFailure
  constructor(failure: ApiFailure) {
    super(failure.message)
    this.failure = failure
    this.name = 'ToolFailure'
  }
}

/** The answer's body when it is a success; else its error envelope thrown as a ToolFailure. */
export function okBody<T>(answer: ApiAnswer): T {
  if (answer.status < 400) return answer.body as T
  const error = (answer.body as { error?: Partial<ApiFailure> } | null)?.error
  throw new ToolFailure({
    status: answer.status,
    type: error?.type ?? 'api_error',
    code: error?.code ?? 'unexpected_answer',
    message: error?.message ?? `The API answered ${answer.status} without an error envelope.`,
    ...(error?.param === undefined ? {} : { param: error.param }),
  })
}

/** The User-Agent of a tool's API calls: `paraph-mcp (TRANSPORT; TOOL)`, then the client's own. */
export function toolUserAgent(transport: 'http' | 'stdio', tool: string, client?: string): string {
  const ours = `paraph-mcp (${transport}; ${tool})`
  return client ? `${ours} ${client}` : ours
}
