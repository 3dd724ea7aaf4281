// @paraph/sdk — the TypeScript client of the Paraph API (docs/sdks.md), the package's one entry
// (package.json `exports`). `new Paraph({ apiKey })` has one method per API operation, named by
// its OpenAPI operationId and typed from the generated OpenAPI types; `list` walks a cursor list
// page by page (docs/api.md#pagination); `webhooks.verify` checks a delivery (webhooks.ts). Each
// call goes through request.ts: Idempotency-Key, retries, timeouts, typed errors.
import { OPERATIONS } from './generated/operations.gen.ts'
import type {
  Args,
  CallOptions,
  Item,
  ListOperationId,
  MethodArgs,
  OperationId,
  OperationMethods,
  Result,
} from './operation-types.ts'
import { type Answer, type RequestInput, type Settings, send } from './request.ts'
import { DEFAULT_RETRY, type RetryPolicy } from './retry.ts'
import { webhooks } from './webhooks.ts'

export { ParaphConnectionError, ParaphError, ParaphTimeoutError } from './errors.ts'
export type { components, operations, paths } from './generated/openapi.gen.ts'
export type * from './operation-types.ts'
export {
  type VerifyOptions,
  type WebhookEvent,
  type WebhookEventType,
  WebhookVerificationError,
  webhooks,
} from './webhooks.ts'

export const SDK_VERSION = '0.1.0'

export interface ParaphOptions {
  /** `sk_test_…` or `sk_live_…` (docs/api.md#keys). */
  apiKey: string
  /** Where Paraph answers, e.g. `https://sign.example.com` (default http://127.0.0.1:8080). */
  baseUrl?: string
  /** Per attempt, in ms (default 60 000: an HTML render may wait 20 s behind others, docs/api.md#limits). */
  timeoutMs?: number
  /** Retries after the first attempt (default 2). */
  maxRetries?: number
  /** Backoff settings beside maxRetries (docs/sdks.md#retries-and-idempotency). */
  retry?: Partial<Omit<RetryPolicy, 'maxRetries'>>
  /** Another fetch (a proxy's, a test's); the global one by default. */
  fetch?: typeof fetch
}

class ParaphClient {
  readonly webhooks = webhooks
  readonly #settings: Settings

  constructor(options: ParaphOptions) {
    if (!options?.apiKey) throw new TypeError('Paraph: apiKey is required (sk_test_… or sk_live_…)')
    this.#settings = {
      apiKey: options.apiKey,
      baseUrl: options.baseUrl ?? 'http://127.0.0.1:8080',
      timeoutMs: options.timeoutMs ?? 60_000,
      retry: {
        ...DEFAULT_RETRY,
        ...options.retry,
        maxRetries: options.maxRetries ?? DEFAULT_RETRY.maxRetries,
      },
      fetch: options.fetch ?? ((input, init) => fetch(input, init)),
      userAgent: `paraph-sdk-typescript/${SDK_VERSION}`,
    }
    for (const id of Object.keys(OPERATIONS) as OperationId[]) {
      Object.defineProperty(this, id, {
        value: (args?: Args<typeof id>, options?: CallOptions) =>
          this.call(id, ...([args, options] as MethodArgs<typeof id>)),
        enumerable: false,
      })
    }
  }

  /** Calls one operation by its operationId; resolves to its answer's body. */
  async call<K extends OperationId>(id: K, ...[args, options]: MethodArgs<K>): Promise<Result<K>> {
    return (await this.request(id, ...([args, options] as MethodArgs<K>))).data as Result<K>
  }

  /** As `call`, with the answer's status and headers (`Request-Id`, `Idempotent-Replayed`, …). */
  request<K extends OperationId>(id: K, ...[args, options]: MethodArgs<K>): Promise<Answer> {
    const op = OPERATIONS[id]
    if (!op) throw new TypeError(`Paraph: no operation ${String(id)}`)
    return send(this.#settings, op, (args ?? {}) as RequestInput, options)
  }

  /**
   * Every item of a list, page after page (`for await (const s of paraph.list('listSubmissions'))`):
   * each page asks for the next with its `next_cursor` until `has_more` is false. `query.limit` is
   * the page size; filters stay the same on every page.
   */
  async *list<K extends ListOperationId>(id: K, ...[args, options]: MethodArgs<K>): AsyncGenerator<Item<K>> {
    const input = (args ?? {}) as RequestInput
    let cursor = input.query?.cursor as string | undefined
    for (;;) {
      const pageArgs = { ...input, query: { ...input.query, cursor } }
      const page = (await this.call(id, ...([pageArgs, options] as unknown as MethodArgs<K>))) as {
        data: Item<K>[]
        has_more: boolean
        next_cursor: string | null
      }
      yield* page.data
      if (!page.has_more || !page.next_cursor) return
      cursor = page.next_cursor
    }
  }
}

/** The client: ParaphClient's `call`, `request`, `list` and `webhooks`, and one method per operation. */
export type Paraph = ParaphClient & OperationMethods
// The operation methods are installed by the constructor from the generated table.
export const Paraph = ParaphClient as new (options: ParaphOptions) => Paraph
