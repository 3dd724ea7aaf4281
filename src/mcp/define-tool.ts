// One MCP tool = one definition (docs/mcp.md#tools): its TypeBox input and output schemas are what
// tools/list shows, what the arguments are checked against, and what the structured result
// follows; its annotations tell a client what calling it does.
import type { Static, TSchema } from 'typebox'
import { canonicalDigest } from '../lib/crypto.ts'
import type { ApiCaller } from './api-caller.ts'

/** MCP's tool annotations, every one stated (docs/mcp.md#tools). */
export interface ToolAnnotations {
  /** Changes nothing. */
  readOnlyHint: boolean
  /** May change or end something a person relies on (a signing request, a mail, a submission). */
  destructiveHint: boolean
  /** The same call again has no further effect. */
  idempotentHint: boolean
  /** Reaches past this Paraph (mail to people). */
  openWorldHint: boolean
}

export interface ToolDefinition<I extends TSchema = TSchema, O extends TSchema = TSchema> {
  name: string
  title: string
  /** What it does and when to use it, for the agent that reads tools/list. */
  description: string
  input: I
  output: O
  annotations: ToolAnnotations
  /** Calls the API; throws ToolFailure (api-caller.ts) for a refusal. */
  run(args: Static<I>, api: ApiCaller): Promise<Static<O>>
}

export function defineTool<I extends TSchema, O extends TSchema>(
  tool: ToolDefinition<I, O>,
): ToolDefinition<I, O> {
  return tool
}

// biome-ignore lint/suspicious/noExplicitAny: a list holds tools of every schema
export type AnyTool = ToolDefinition<any, any>

/**
 * The Idempotency-Key of a tool's creating call, derived from the call itself: the SHA-256 of the
 * tool's name and its arguments as canonical JSON (keys sorted), so an agent repeating the same
 * call gets the first answer back instead of a second creation (docs/mcp.md#idempotency).
 */
export function derivedIdempotencyKey(tool: string, args: unknown): string {
  return `mcp_${canonicalDigest({ tool, arguments: args })}`
}

/** `/v1/…?a=1&b=2` from the defined values only. */
export function withQuery(path: string, query: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams()
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, String(value))
  const text = params.toString()
  return text === '' ? path : `${path}?${text}`
}
