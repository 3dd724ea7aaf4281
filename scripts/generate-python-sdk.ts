// Generates the Python SDK's typed layer, sdks/python/src/paraph/_generated.py, from docs/openapi.yaml
// (docs/decisions/0015-python-sdk.md): a TypedDict or alias per schema, one method per `/v1`
// operation for the sync and the async client, the operation table the request core reads, and
// the webhook event union from the document's `webhooks` section.
//   npm run sdk:generate:python               rewrites the committed file
//   node scripts/generate-python-sdk.ts OUT   writes it to OUT instead (the freshness test)
import { readFileSync, writeFileSync } from 'node:fs'
import { parse } from 'yaml'
import { PythonTypes, pascal, pyString, type Schema } from './python-sdk/python-types.ts'

const ROOT = new URL('..', import.meta.url).pathname
export const OPENAPI_PATH = `${ROOT}docs/openapi.yaml`
export const GENERATED_PATH = `${ROOT}sdks/python/src/paraph/_generated.py`

interface Parameter {
  name: string
  in: string
  required?: boolean
  schema?: Schema
}

interface Operation {
  operationId: string
  summary?: string
  parameters?: Parameter[]
  requestBody?: { required?: boolean; content: Record<string, { schema: Schema }> }
  responses: Record<string, { content?: Record<string, { schema?: Schema }> }>
  security?: unknown[]
}

interface Method {
  id: string
  name: string
  httpMethod: string
  path: string
  summary: string
  idempotent: boolean
  /** Python parameters after `self`, and the call's keyword arguments. */
  signature: string[]
  call: string[]
  returns: string
  /** The item type when the operation is a cursor-paginated list (docs/api.md#pagination). */
  item?: string
}

const snake = (id: string) => id.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)

/** The API's own operations: every route under /v1 called with a key (not signer pages, files or probes). */
function apiOperations(doc: Schema): Array<[string, string, Operation]> {
  const out: Array<[string, string, Operation]> = []
  for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, Operation>>)) {
    if (!path.startsWith('/v1/')) continue
    for (const [method, op] of Object.entries(item)) {
      if (op?.operationId && op.security?.length) out.push([method.toUpperCase(), path, op])
    }
  }
  return out
}

function successType(op: Operation, types: PythonTypes): { returns: string; listItem?: Schema } {
  const out: string[] = []
  let listItem: Schema | undefined
  for (const [status, response] of Object.entries(op.responses)) {
    if (!status.startsWith('2')) continue
    const json = response.content?.['application/json']?.schema
    if (json) {
      out.push(types.typeOf(json, `${pascal(op.operationId)}Response`))
      listItem = listItemOf(json, types)
    } else out.push(response.content ? 'bytes' : 'None')
  }
  return { returns: [...new Set(out)].join(' | ') || 'None', listItem }
}

function listItemOf(schema: Schema, types: PythonTypes): Schema | undefined {
  const resolved = typeof schema.$ref === 'string' ? types.resolve(schema.$ref) : schema
  const properties = resolved.properties as Record<string, Schema> | undefined
  if (!properties?.data || !properties.next_cursor || !properties.has_more) return undefined
  return properties.data.items as Schema
}

function methodOf(httpMethod: string, path: string, op: Operation, types: PythonTypes): Method {
  const name = snake(op.operationId)
  const params = op.parameters ?? []
  const idempotent = params.some((p) => p.in === 'header' && p.name === 'Idempotency-Key')
  const signature: string[] = []
  const call: string[] = []
  const pathParams = params.filter((p) => p.in === 'path')
  for (const p of pathParams) signature.push(`${p.name}: str`)
  const json = op.requestBody?.content['application/json']?.schema
  if (json) {
    const bodyType = types.typeOf(json, `${pascal(op.operationId)}Body`)
    signature.push(op.requestBody?.required ? `body: ${bodyType}` : `body: ${bodyType} | None = None`)
    call.push('body=body')
  }
  signature.push('*')
  const query = params.filter((p) => p.in === 'query')
  for (const p of query) {
    const type = types.typeOf(p.schema ?? {}, `${pascal(op.operationId)}${pascal(p.name)}`)
    signature.push(p.required ? `${p.name}: ${type}` : `${p.name}: ${type} | None = None`)
  }
  if (pathParams.length)
    call.push(`path={${pathParams.map((p) => `${pyString(p.name)}: ${p.name}`).join(', ')}}`)
  if (query.length) call.push(`query={${query.map((p) => `${pyString(p.name)}: ${p.name}`).join(', ')}}`)
  if (idempotent) {
    signature.push('idempotency_key: str | None = None')
    call.push('idempotency_key=idempotency_key')
  }
  signature.push('timeout: float | None = None')
  call.push('timeout=timeout')
  const { returns, listItem } = successType(op, types)
  const item =
    httpMethod === 'GET' && listItem ? types.typeOf(listItem, `${pascal(op.operationId)}Item`) : undefined
  const summary = op.summary ?? op.operationId
  return { id: op.operationId, name, httpMethod, path, summary, idempotent, signature, call, returns, item }
}

function methodSource(m: Method, flavour: 'sync' | 'async'): string {
  const doc = `        """${m.summary.replace(/"""/g, "'''")}: ${m.httpMethod} ${m.path}."""`
  const head = (returns: string, isAsync: boolean) =>
    `    ${isAsync ? 'async ' : ''}def ${m.name}(self, ${m.signature.join(', ')}) -> ${returns}:`
  const op = `OPERATIONS[${pyString(m.id)}]`
  if (m.item) {
    const pager = flavour === 'sync' ? 'SyncPager' : 'AsyncPager'
    const call = m.call.filter((c) => !c.startsWith('idempotency_key')).join(', ')
    return [head(`${pager}[${m.item}]`, false), doc, `        return self._paginate(${op}, ${call})`].join(
      '\n',
    )
  }
  const awaited = flavour === 'async' ? 'await ' : ''
  return [
    head(m.returns, flavour === 'async'),
    doc,
    `        return cast(${pyString(m.returns)}, ${awaited}self._request(${op}, ${m.call.join(', ')}))`,
  ].join('\n')
}

function webhookEvents(doc: Schema, types: PythonTypes): { union: string; names: string[] } {
  const hooks = (doc.webhooks ?? {}) as Record<string, { post?: Operation }>
  const names = Object.keys(hooks)
  const members = names.map((name) => {
    const schema = hooks[name]?.post?.requestBody?.content['application/json']?.schema
    return schema ? types.typeOf(schema, `${pascal(name)}WebhookEvent`) : 'dict[str, Any]'
  })
  return { union: members.length ? [...new Set(members)].join(' | ') : 'dict[str, Any]', names }
}

const HEADER = `# Generated by scripts/generate-python-sdk.ts from docs/openapi.yaml: do not edit (npm run
# sdk:generate:python). The types of every schema, one method per /v1 operation for the sync and the
# async client (docs/decisions/0015-python-sdk.md), and the webhook event types.
from __future__ import annotations

from typing import Any, Literal, NotRequired, TypeAlias, TypedDict, cast

from ._operation import Operation
from ._pagination import AsyncPager, SyncPager
`

/** The generated module's text for an OpenAPI document's text. */
export function generatePythonSdk(openapiText: string): string {
  const doc = parse(openapiText) as Schema
  const components = ((doc.components as Schema).schemas ?? {}) as Record<string, Schema>
  const types = new PythonTypes(components)
  const methods = apiOperations(doc).map(([m, p, op]) => methodOf(m, p, op, types))
  const hooks = webhookEvents(doc, types)
  if (
    types.declarations().some((d) => d.startsWith('WebhookEvent:') || d.startsWith('class WebhookEvent('))
  ) {
    throw new Error(
      'a schema named WebhookEvent was declared: the union of the webhooks section needs that name',
    )
  }
  const table = methods.map(
    (m) =>
      `    ${pyString(m.id)}: Operation(${pyString(m.httpMethod)}, ${pyString(m.path)}, idempotent=${m.idempotent ? 'True' : 'False'}),`,
  )
  const client = (flavour: 'sync' | 'async') => {
    const cls = flavour === 'sync' ? 'SyncOperations' : 'AsyncOperations'
    const pager = flavour === 'sync' ? 'SyncPager' : 'AsyncPager'
    const asyncWord = flavour === 'async' ? 'async ' : ''
    return [
      `class ${cls}:`,
      `    """One method per operation of the API (${methods.length}); the client supplies _request and _paginate."""`,
      '',
      `    ${asyncWord}def _request(self, op: Operation, *, path: dict[str, str] | None = None, query: dict[str, Any] | None = None, body: Any = None, idempotency_key: str | None = None, timeout: float | None = None) -> Any:`,
      '        raise NotImplementedError',
      '',
      `    def _paginate(self, op: Operation, *, path: dict[str, str] | None = None, query: dict[str, Any] | None = None, timeout: float | None = None) -> ${pager}[Any]:`,
      '        raise NotImplementedError',
      '',
      methods.map((m) => methodSource(m, flavour)).join('\n\n'),
    ].join('\n')
  }
  return [
    HEADER,
    '# Schemas (components.schemas, and the objects declared inline in them)\n',
    types.declarations().join('\n'),
    '# Webhook events (the OpenAPI webhooks section; docs/webhooks.md#the-body)\n',
    `WebhookEvent: TypeAlias = ${pyString(hooks.union)}`,
    `WEBHOOK_EVENT_TYPES: tuple[str, ...] = (${hooks.names.map(pyString).join(', ')}${hooks.names.length === 1 ? ',' : ''})`,
    '\n# Operations: method, path, and whether it takes an Idempotency-Key (docs/api.md#idempotency)\n',
    `OPERATIONS: dict[str, Operation] = {\n${table.join('\n')}\n}`,
    '\n',
    client('sync'),
    '\n',
    client('async'),
    '',
  ].join('\n')
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const out = process.argv[2] ?? GENERATED_PATH
  writeFileSync(out, generatePythonSdk(readFileSync(OPENAPI_PATH, 'utf8')))
}
