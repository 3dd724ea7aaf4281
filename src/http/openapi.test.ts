import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import { after, before, describe, it } from 'node:test'
import { Validator } from '@seriousme/openapi-schema-validator'
import { parse } from 'yaml'
import { startTestApp, type TestApp } from '../../test/harness.ts'
import { TEST_ROUTES } from '../../test/test-routes.ts'
import { API_ROUTES } from '../app.ts'
import { CONSOLE_API_ROUTES } from '../console/console-routes.ts'
import { DELIVERED_EVENT_TYPES } from '../events/event-types.ts'
import { SIGNATURE_HEADER } from '../webhooks/webhook-signature.ts'

/** The console's routes (its pages, assets, sign-in and API): not part of the public API. */
const CONSOLE_ROUTE = /^[A-Z]+ \/console(\/|$)/
/** The MCP endpoint: a protocol of its own (JSON-RPC), documented in docs/mcp.md. */
const MCP_ROUTE = /^[A-Z]+ \/mcp$/

type Doc = {
  openapi: string
  paths: Record<
    string,
    Record<
      string,
      {
        operationId: string
        responses: Record<string, unknown>
        deprecated?: boolean
        parameters: Array<{ name: string; in: string }>
      }
    >
  >
  components: { schemas: Record<string, unknown> }
  webhooks: Record<string, { post: WebhookOperation }>
}

type WebhookOperation = {
  operationId: string
  security: unknown[]
  parameters: Array<{ name: string; in: string; required: boolean; schema: { pattern: string } }>
  requestBody: { required: boolean; content: Record<string, { schema: { $ref: string } }> }
  responses: Record<string, unknown>
}

type EventSchema = {
  title: string
  required: string[]
  properties: { type: { const: string; enum: string[] }; data: { $ref: string } }
}

describe('GET /openapi.yaml', () => {
  let t: TestApp
  let doc: Doc
  let text: string
  before(async () => {
    t = await startTestApp({ routes: [...API_ROUTES, ...TEST_ROUTES] })
    const res = await t.app.inject({ method: 'GET', url: '/openapi.yaml' })
    assert.equal(res.statusCode, 200)
    assert.match(String(res.headers['content-type']), /^application\/yaml/)
    text = res.body
    doc = parse(text) as Doc
  })
  after(() => t.close())

  it('is a valid OpenAPI 3.1 document', async () => {
    assert.equal(doc.openapi, '3.1.0')
    const validator = new Validator()
    const result = await validator.validate(doc as never)
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2))
  })

  it('validates the webhooks section too: a broken event operation makes the document invalid', async () => {
    assert.ok(Object.keys(doc.webhooks).length > 0)
    const broken = structuredClone(doc)
    ;(broken.webhooks['submission.completed']!.post as unknown as Record<string, unknown>).responses = 'none'
    const result = await new Validator().validate(broken as never)
    assert.equal(result.valid, false)
    assert.match(JSON.stringify(result.errors), /webhooks/)
  })

  it('needs no key and is not under /v1', async () => {
    assert.equal((await t.app.inject({ method: 'GET', url: '/v1/openapi.yaml' })).statusCode, 404)
  })

  it('covers every route the app answers, and nothing else', () => {
    const documented = new Set<string>()
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const method of Object.keys(ops)) documented.add(`${method.toUpperCase()} ${path}`)
    }
    // The console's own routes are deliberately left out (docs/console.md documents them), and so
    // is the MCP endpoint (docs/mcp.md).
    const registered = new Set(
      t.app.registeredRoutes
        .filter((r) => !CONSOLE_ROUTE.test(r) && !MCP_ROUTE.test(r))
        .map((r) => r.replace(/:(\w+)/g, '{$1}')),
    )
    assert.ok(registered.size >= 8, [...registered].join())
    assert.deepEqual([...registered].sort(), [...documented].sort())
  })

  it('leaves out the MCP endpoint, which docs/mcp.md documents', async () => {
    assert.ok(t.app.registeredRoutes.includes('POST /mcp'))
    assert.equal(doc.paths['/mcp'], undefined)
    const docs = await readFile(new URL('../../docs/mcp.md', import.meta.url), 'utf8')
    assert.match(docs, /`POST \/mcp`/)
  })

  it('leaves out the console routes; its API routes are each documented in docs/console.md', async () => {
    assert.ok(!Object.keys(doc.paths).some((p) => CONSOLE_ROUTE.test(`GET ${p}`)))
    const docs = await readFile(new URL('../../docs/console.md', import.meta.url), 'utf8')
    for (const route of CONSOLE_API_ROUTES.map((r) => `${r.method} ${r.url}`)) {
      assert.ok(t.app.registeredRoutes.includes(route), `${route} is not registered`)
      assert.ok(docs.includes(`\`${route}\``), `docs/console.md lacks \`${route}\``)
    }
  })

  it('documents each operation with its success and error responses', () => {
    const health = doc.paths['/v1/health']!.get!
    assert.equal(health.operationId, 'getHealth')
    assert.deepEqual(Object.keys(health.responses).sort(), ['200', '401', '429', '500'])
    const events = doc.paths['/v1/events']!.get!
    assert.deepEqual(Object.keys(events.responses).sort(), ['200', '401', '422', '429', '500'])
    assert.match(
      JSON.stringify(events.responses['422']),
      /invalid_pagination.*invalid_type.*invalid_submission_id|invalid_request/,
    )
    assert.deepEqual(
      events.parameters.map((p) => p.name),
      ['limit', 'cursor', 'type', 'submission_id'],
    )
    const create = doc.paths['/v1/test/widgets']!.post!
    assert.deepEqual(Object.keys(create.responses).sort(), [
      '201',
      '400',
      '401',
      '409',
      '413',
      '415',
      '422',
      '429',
      '500',
    ])
    assert.ok(create.parameters.some((p) => p.name === 'Idempotency-Key' && p.in === 'header'))
    for (const code of [
      'idempotency_key_required',
      'invalid_json',
      'idempotency_key_in_use',
      'request_too_large',
    ]) {
      assert.ok(JSON.stringify(create.responses).includes(code), code)
    }
    assert.ok(
      JSON.stringify(doc.paths['/v1/test/widgets/{id}']!.get!.responses['400']).includes('invalid_id'),
    )
    assert.equal(doc.paths['/v1/test/old']!.get!.deprecated, true)
    assert.equal(doc.paths['/v1/test/widgets']!.post!.deprecated, undefined)
  })

  it('documents the Deprecation, Sunset and Link headers of a deprecated route, errors included', () => {
    const old = doc.paths['/v1/test/old']!.get!.responses as Record<
      string,
      { headers: Record<string, unknown> }
    >
    for (const status of ['200', '401']) {
      assert.deepEqual(old[status]!.headers.Deprecation, { $ref: '#/components/headers/Deprecation' }, status)
      assert.deepEqual(old[status]!.headers.Sunset, { $ref: '#/components/headers/Sunset' }, status)
      assert.deepEqual(old[status]!.headers.Link, { $ref: '#/components/headers/Link' }, status)
    }
    const headers = (doc as unknown as { components: { headers: Record<string, unknown> } }).components
      .headers
    for (const name of ['Deprecation', 'Sunset', 'Link']) assert.ok(headers[name], name)
    const current = doc.paths['/v1/test/widgets/{id}']!.get!.responses as Record<string, { headers: object }>
    assert.ok(!('Deprecation' in current['200']!.headers))
  })

  it('states the limits the contract leaves open, with the codes that refuse them', () => {
    const info = (doc as unknown as { info: { description: string } }).info.description
    for (const expected of [
      /Pages per PDF \| 2000 \| 422 `invalid_pdf`/,
      /PDF URL length \| 2048 characters \| 422 `invalid_pdf_url`/,
      /Request body, JSON routes \| 1 MiB \(1048576 bytes\) \| 413 `request_too_large`/,
      /`from_pdf` and `POST \/v1\/templates` \| 4.5 MiB \(4718592 bytes\)/,
      /415 `unsupported_content_type`/,
      /60 s in all/,
    ]) {
      assert.match(info, expected)
    }
    const body = (
      doc.paths['/v1/submissions/from_pdf']!.post as unknown as { requestBody: { description: string } }
    ).requestBody.description
    assert.match(body, /at most 4718592 bytes: a larger body is 413 `request_too_large`/)
    const redirect = JSON.stringify(doc.components.schemas)
    assert.match(redirect, /"redirect_url":\{[^}]*"format":"web-url"/)
  })

  it('documents the signer session, the e-mail code routes and the submitter writes of issue #12', () => {
    type Op = {
      operationId: string
      parameters: Array<{ name: string; in: string; description?: string }>
      responses: Record<string, { headers?: Record<string, unknown>; description?: string }>
    }
    const op = (path: string, method: string) => doc.paths[path]![method] as unknown as Op
    for (const path of ['/s/{slug}/form', '/embed/{token}/sign', '/s/{slug}/email_2fa/verify']) {
      const method = path.endsWith('form') ? 'get' : 'post'
      const params = op(path, method).parameters
      assert.ok(params.some((p) => p.in === 'header' && p.name === 'Paraph-Signer-Session' && p.description))
      assert.ok(params.some((p) => p.in === 'cookie' && p.name === 'paraph_signer_session'))
    }
    const send = op('/embed/{token}/email_2fa/send', 'post')
    assert.ok(send.responses['429']!.headers!['Retry-After'], 'Retry-After on code_resend_too_soon')
    assert.match(String(send.responses['429']!.description), /code_resend_too_soon/)
    const verify = op('/s/{slug}/email_2fa/verify', 'post')
    assert.ok(verify.responses['200']!.headers!['Set-Cookie'])
    assert.match(JSON.stringify(verify.responses['422']), /invalid_code.*code_expired/)
    const patch = op('/v1/submitters/{id}', 'patch')
    assert.equal(patch.operationId, 'updateSubmitter')
    assert.match(
      JSON.stringify(patch.responses['409']),
      /submitter_already_finalized.*submission_already_finalized/,
    )
    const embed = op('/v1/submitters/{id}/embed_token', 'post')
    assert.deepEqual(
      Object.keys(embed.responses).filter((s) => s.startsWith('2')),
      ['200'],
    )
    assert.match(JSON.stringify(embed.responses['500']), /token_issue_failed/)
    for (const name of [
      'EmbedToken',
      'EmbedTokenRequest',
      'UpdateSubmitterRequest',
      'SignerSession',
      'EmailCodeSent',
    ])
      assert.ok(doc.components.schemas[name], name)
    assert.match(JSON.stringify(doc.components.schemas.EmbedTokenRequest), /"default":3600/)
  })

  describe('the webhooks section (docs/webhooks.md#in-the-openapi-description)', () => {
    const schema = (ref: string) => {
      assert.match(ref, /^#\/components\/schemas\/\w+$/)
      const found = doc.components.schemas[ref.split('/').pop()!]
      assert.ok(found, `${ref} is a component`)
      return found as EventSchema
    }

    it('lists exactly the types an endpoint can receive (DELIVERED_EVENT_TYPES)', () => {
      assert.deepEqual(Object.keys(doc.webhooks).sort(), [...DELIVERED_EVENT_TYPES].sort())
      assert.ok(DELIVERED_EVENT_TYPES.includes('submitter.reminded'))
      assert.ok(DELIVERED_EVENT_TYPES.includes('webhook.test'))
      assert.ok(!(DELIVERED_EVENT_TYPES as readonly string[]).includes('submitter.signed'), 'journal-only')
    })

    it('each a POST whose required JSON body is a named event with `type` fixed to its own type', () => {
      const operationIds = new Set<string>()
      for (const [type, { post }] of Object.entries(doc.webhooks)) {
        operationIds.add(post.operationId)
        assert.equal(post.requestBody.required, true, type)
        assert.deepEqual(Object.keys(post.requestBody.content), ['application/json'], type)
        const event = schema(post.requestBody.content['application/json']!.schema.$ref)
        assert.match(event.title, /^[A-Z][A-Za-z]+Event$/, type)
        assert.deepEqual(event.required, ['id', 'type', 'created_at', 'data'], type)
        assert.equal(event.properties.type.const, type)
        assert.deepEqual(event.properties.type.enum, [type])
        assert.ok(schema(event.properties.data.$ref), type)
        assert.deepEqual(Object.keys(post.responses), ['2XX', 'default'], type)
        assert.deepEqual(post.security, [], 'a receiver takes no API key')
      }
      assert.equal(operationIds.size, DELIVERED_EVENT_TYPES.length, 'operationIds are distinct')
      assert.equal(
        schema('#/components/schemas/SubmissionCompletedEvent').properties.type.const,
        'submission.completed',
      )
    })

    it('each carries the required Paraph-Signature header, whose pattern a real header matches', () => {
      for (const [type, { post }] of Object.entries(doc.webhooks)) {
        const [header, ...others] = post.parameters
        assert.equal(others.length, 0, type)
        assert.equal(header?.name, SIGNATURE_HEADER)
        assert.equal(header?.in, 'header')
        assert.equal(header?.required, true)
        const pattern = new RegExp(header!.schema.pattern)
        assert.ok(pattern.test(`t=1795315582,v1=${'a'.repeat(64)},v1=${'0'.repeat(64)}`), type)
        assert.ok(!pattern.test(`t=1795315582,v1=${'A'.repeat(64)}`), type)
      }
    })

    it('names WebhookEvent, the union of the bodies discriminated by type', () => {
      const union = doc.components.schemas.WebhookEvent as {
        oneOf: Array<{ $ref: string }>
        discriminator: { propertyName: string; mapping: Record<string, string> }
      }
      assert.equal(union.discriminator.propertyName, 'type')
      assert.deepEqual(Object.keys(union.discriminator.mapping).sort(), [...DELIVERED_EVENT_TYPES].sort())
      for (const [type, ref] of Object.entries(union.discriminator.mapping)) {
        assert.equal(schema(ref).properties.type.const, type)
        assert.equal(ref, doc.webhooks[type]!.post.requestBody.content['application/json']!.schema.$ref)
      }
      assert.deepEqual(
        union.oneOf.map((o) => o.$ref),
        Object.values(union.discriminator.mapping),
      )
      for (const name of ['SubmissionSnapshot', 'SnapshotSubmitter', 'SubmissionEventData', 'BulkSend'])
        assert.ok(doc.components.schemas[name], name)
    })
  })

  it('names shared shapes as components', () => {
    for (const name of ['Error', 'Health', 'EventList', 'Event'])
      assert.ok(doc.components.schemas[name], name)
    assert.ok(!text.includes('"~'), 'no TypeBox internals leak')
  })
})
