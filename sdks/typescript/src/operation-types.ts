// The type of each operation's arguments and answer, read from the generated OpenAPI types
// (generated/openapi.gen.ts, openapi-typescript): `path` and `query` parameters and the JSON body
// as the OpenAPI declares them, the answer as the union of its 2xx bodies (bytes for a PDF).
// Type-only: nothing here exists at run time.
import type { operations } from './generated/openapi.gen.ts'
import type { OPERATIONS } from './generated/operations.gen.ts'

/** Every operation an API key calls, by its OpenAPI `operationId`. */
export type OperationId = keyof typeof OPERATIONS
/** The operations that answer a cursor page (docs/api.md#pagination). */
export type ListOperationId = {
  [K in OperationId]: (typeof OPERATIONS)[K]['list'] extends true ? K : never
}[OperationId]

type Op<K extends OperationId> = operations[K]

type PathArgs<O> = O extends { parameters: { path: infer P } } ? { path: P } : unknown
type QueryArgs<O> = O extends { parameters: { query: infer Q } }
  ? { query: Q }
  : O extends { parameters: { query?: infer Q } }
    ? [NonNullable<Q>] extends [never]
      ? unknown
      : { query?: NonNullable<Q> }
    : unknown
type JsonOf<C> = C extends { content: { 'application/json': infer B } } ? B : never
type BodyArgs<O> = O extends { requestBody: infer R }
  ? { body: JsonOf<R> }
  : O extends { requestBody?: infer R }
    ? [NonNullable<R>] extends [never]
      ? unknown
      : { body?: JsonOf<NonNullable<R>> }
    : unknown

/** The first argument of an operation's method: `{ path?, query?, body? }` as it takes them. */
export type Args<K extends OperationId> = PathArgs<Op<K>> & QueryArgs<Op<K>> & BodyArgs<Op<K>>

type SuccessCode = 200 | 201 | 202 | 204
type Answer<R> = R extends { content: { 'application/json': infer B } } ? B : Uint8Array
/** What an operation resolves to: its 2xx JSON body, or the bytes of a file (`getAuditLog`). */
export type Result<K extends OperationId> =
  Op<K> extends { responses: infer R } ? Answer<R[Extract<keyof R, SuccessCode>]> : never

/** One item of a list operation's `data`. */
export type Item<K extends ListOperationId> = Result<K> extends { data: Array<infer I> } ? I : never

/** Per call: everything optional, each overriding the client's setting. */
export interface CallOptions {
  /** The Idempotency-Key of a creating POST; by default a new UUID per call, the same on its retries. */
  idempotencyKey?: string
  /** Aborts the call, its retries and waits included; it rejects with the signal's reason. */
  signal?: AbortSignal
  /** Per attempt, in ms. */
  timeoutMs?: number
  maxRetries?: number
  /** Extra request headers. */
  headers?: Record<string, string>
}

/** An operation's arguments are optional when none of them is required. */
export type MethodArgs<K extends OperationId> =
  object extends Args<K> ? [args?: Args<K>, options?: CallOptions] : [args: Args<K>, options?: CallOptions]

/** One method per operation, named by its operationId: `paraph.createSubmissionFromPdf({ body })`. */
export type OperationMethods = {
  [K in OperationId]: (...args: MethodArgs<K>) => Promise<Result<K>>
}
