// The MCP endpoint over Streamable HTTP (docs/mcp.md#http), driven by the MCP SDK's own client
// against a listening Paraph: the tools as tools/list shows them, a document sent from a template
// and from HTML (the same call twice creates once), followed, reminded, signed through the signer
// API, finalized by the workers, its signed PDF downloaded and verified, another cancelled; tool
// errors with the API's codes; a wrong key refused as the API refuses it; the inner calls in the
// request logs. No mock: a real app, real HTTP, a real database, real Chromium and PDF workers.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { freePort } from '../../test/browser.ts'
import { createTemplateFor } from '../../test/documents.ts'
import { startTestApp, type TestApp } from '../../test/harness.ts'
import { work } from '../../test/purge.ts'
import { type CreatedSubmitter, SIGNATURE, signer } from '../../test/signing.ts'
import { mcpClient, resultOf } from './mcp-client-kit.ts'

const HTML = '<h1>Consulting agreement</h1><p>The parties agree.</p><p>Signed: {{Signature;role=Client}}</p>'

/** A tool error's envelope. */
function toolError(result: CallToolResult) {
  assert.equal(result.isError, true, JSON.stringify(result))
  return JSON.parse((result.content[0] as { text: string }).text).error as {
    status: number
    code: string
    message: string
    param?: string
  }
}

type Sent = {
  submission_id: string
  already_sent: boolean
  signers: Array<{ id: string; signing_url: string }>
}

describe('the MCP endpoint over Streamable HTTP', () => {
  let t: TestApp
  let base: string
  let key: string
  let templateId: string
  let client: Client

  before(async () => {
    const port = await freePort()
    base = `http://127.0.0.1:${port}`
    t = await startTestApp({ env: { PUBLIC_URL: base, RATE_LIMIT_TEST: '100000', RATE_LIMIT_MCP: '100000' } })
    key = (await t.account('Agents Inc')).testKey
    templateId = await createTemplateFor(t, key)
    await t.app.listen({ port, host: '127.0.0.1' })
    client = await mcpClient(base, key)
  })
  after(async () => {
    await client?.close()
    await t?.close()
  })

  const call = (name: string, args: Record<string, unknown>) =>
    client.callTool({ name, arguments: args }) as Promise<CallToolResult>

  it('lists the eight tools, each with an input and an output schema and every annotation', async () => {
    const { tools } = await client.listTools()
    const byName = new Map(tools.map((tool) => [tool.name, tool]))
    assert.deepEqual([...byName.keys()].sort(), [
      'cancel_submission',
      'describe_template',
      'get_signed_documents',
      'get_submission_status',
      'list_templates',
      'remind_signer',
      'send_for_signature',
      'verify_pdf',
    ])
    for (const tool of tools) {
      assert.equal(tool.inputSchema.type, 'object', tool.name)
      assert.equal(tool.outputSchema?.type, 'object', tool.name)
      assert.ok((tool.description ?? '').length > 60, tool.name)
      for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint'] as const)
        assert.equal(typeof tool.annotations?.[hint], 'boolean', `${tool.name} ${hint}`)
    }
    const send = byName.get('send_for_signature')!.annotations!
    assert.deepEqual([send.readOnlyHint, send.destructiveHint, send.idempotentHint], [false, true, true])
    for (const name of ['cancel_submission', 'remind_signer'])
      assert.equal(byName.get(name)!.annotations!.destructiveHint, true, name)
    for (const name of [
      'list_templates',
      'describe_template',
      'get_submission_status',
      'get_signed_documents',
      'verify_pdf',
    ])
      assert.equal(byName.get(name)!.annotations!.readOnlyHint, true, name)
    assert.deepEqual(client.getServerVersion()?.name, 'paraph')
  })

  it('lists and describes templates: roles and fields to send with', async () => {
    const list = resultOf<{ templates: Array<{ id: string; roles: string[] }> }>(
      await call('list_templates', {}),
    )
    assert.deepEqual(
      list.templates.map((x) => x.id),
      [templateId],
    )
    assert.deepEqual(list.templates[0]!.roles, ['first', 'second'])
    const described = resultOf<{ fields: Array<{ name: string; role: string; type: string }> }>(
      await call('describe_template', { template_id: templateId }),
    )
    assert.deepEqual(
      described.fields.map((f) => `${f.role}:${f.name}:${f.type}`),
      ['first:First signature:signature', 'first:First name:text', 'second:Second signature:signature'],
    )
  })

  it('sends a template; the same call again answers the same submission and creates nothing', async () => {
    const args = {
      template_id: templateId,
      signers: [
        { role: 'first', email: 'ann@example.eu', name: 'Ann', fields: { 'First name': 'Ann' } },
        { role: 'second', email: 'bob@example.eu' },
      ],
    }
    const first = resultOf<Sent>(await call('send_for_signature', args))
    const again = resultOf<Sent>(await call('send_for_signature', args))
    assert.equal(first.already_sent, false)
    assert.equal(again.already_sent, true)
    assert.equal(again.submission_id, first.submission_id)
    const count = await t.deps.db
      .selectFrom('submissions')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow()
    assert.equal(Number(count.n), 1)
    // Another idempotency_key is another submission, on purpose.
    const onPurpose = resultOf<Sent>(
      await call('send_for_signature', { ...args, idempotency_key: 'second copy' }),
    )
    assert.notEqual(onPurpose.submission_id, first.submission_id)
  })

  it('sends HTML, follows and reminds it, completes it, downloads and verifies the signed PDF', async () => {
    const args = {
      html: HTML,
      document_name: 'Consulting agreement',
      signers: [{ role: 'Client', email: 'carla@example.eu', name: 'Carla' }],
    }
    const sent = resultOf<Sent>(await call('send_for_signature', args))
    const replay = resultOf<Sent>(await call('send_for_signature', args))
    assert.deepEqual([replay.submission_id, replay.already_sent], [sent.submission_id, true])
    const id = sent.submission_id

    const status = resultOf<{ status: string; signers: Array<{ status: string }> }>(
      await call('get_submission_status', { submission_id: id }),
    )
    assert.deepEqual([status.status, status.signers[0]!.status], ['sent', 'pending'])

    const reminded = resultOf<{ signer: { reminders_sent: number } }>(
      await call('remind_signer', { signer_id: sent.signers[0]!.id }),
    )
    assert.equal(reminded.signer.reminders_sent, 1)
    const tooSoon = toolError(await call('remind_signer', { signer_id: sent.signers[0]!.id }))
    assert.deepEqual([tooSoon.status, tooSoon.code], [429, 'reminder_too_soon'])

    const before = resultOf<{ signed_pdf_url: string | null }>(
      await call('get_signed_documents', { submission_id: id }),
    )
    assert.equal(before.signed_pdf_url, null)

    const submitter = sent.signers[0] as unknown as CreatedSubmitter
    assert.equal((await signer(t, submitter, 'open')).statusCode, 200)
    const signed = await signer(t, submitter, 'sign', { values: { Signature: SIGNATURE } })
    assert.equal(signed.statusCode, 200, signed.body)
    await work(t)

    const done = resultOf<{ status: string; completed_at: string | null }>(
      await call('get_submission_status', { submission_id: id }),
    )
    assert.equal(done.status, 'completed')
    assert.ok(done.completed_at)
    const files = resultOf<{ signed_pdf_url: string; audit_log_url: string; audit_log_json_url: string }>(
      await call('get_signed_documents', { submission_id: id }),
    )
    assert.ok(files.signed_pdf_url.startsWith(`${base}/`), files.signed_pdf_url)
    assert.equal(files.audit_log_url, `${base}/v1/submissions/${id}/audit_log`)
    const download = await fetch(files.signed_pdf_url)
    assert.equal(download.status, 200)
    const pdf = Buffer.from(await download.arrayBuffer())
    assert.equal(pdf.subarray(0, 5).toString(), '%PDF-')

    const verified = resultOf<{ valid: boolean; submission_id: string; document: string }>(
      await call('verify_pdf', { pdf_base64: pdf.toString('base64') }),
    )
    assert.deepEqual([verified.valid, verified.submission_id, verified.document], [true, id, 'final'])
    pdf.writeUInt8(pdf.readUInt8(pdf.length - 10) ^ 1, pdf.length - 10)
    const altered = resultOf<{ valid: boolean; reason: string }>(
      await call('verify_pdf', { pdf_base64: pdf.toString('base64') }),
    )
    assert.deepEqual([altered.valid, altered.reason], [false, 'altered'])
  })

  it('cancels a submission; cancelling it again answers already_cancelled; a completed one is refused', async () => {
    const sent = resultOf<Sent>(
      await call('send_for_signature', {
        html: HTML,
        document_name: 'To cancel',
        signers: [{ role: 'Client', email: 'dan@example.eu' }],
        send_email: false,
      }),
    )
    const cancelled = resultOf<{ status: string; already_cancelled: boolean }>(
      await call('cancel_submission', { submission_id: sent.submission_id }),
    )
    assert.deepEqual([cancelled.status, cancelled.already_cancelled], ['cancelled', false])
    const again = resultOf<{ already_cancelled: boolean }>(
      await call('cancel_submission', { submission_id: sent.submission_id }),
    )
    assert.equal(again.already_cancelled, true)
    const status = resultOf<{ status: string }>(
      await call('get_submission_status', { submission_id: sent.submission_id }),
    )
    assert.equal(status.status, 'cancelled')
  })

  it('refusals are tool errors with the API’s status, code and message, never a crash', async () => {
    const missing = toolError(
      await call('get_submission_status', { submission_id: 'sub_000000000000000000000000' }),
    )
    assert.deepEqual([missing.status, missing.code], [404, 'resource_not_found'])
    const badId = toolError(await call('get_submission_status', { submission_id: 'nope' }))
    assert.deepEqual([badId.status, badId.code, badId.param], [422, 'invalid_request', 'submission_id'])
    const both = toolError(
      await call('send_for_signature', {
        template_id: templateId,
        html: HTML,
        signers: [{ role: 'first', email: 'a@example.eu' }],
      }),
    )
    assert.deepEqual([both.code, both.param], ['invalid_request', 'template_id'])
    const noRole = toolError(
      await call('send_for_signature', {
        template_id: templateId,
        signers: [{ role: 'boss', email: 'a@example.eu' }],
      }),
    )
    assert.deepEqual([noRole.status, noRole.code], [422, 'submitter_role_not_in_template'])
    const badPdf = resultOf<{ valid: boolean; reason: string }>(
      await call('verify_pdf', { pdf_base64: 'aGVsbG8=' }),
    )
    assert.deepEqual([badPdf.valid, badPdf.reason], [false, 'not_a_pdf'])
    await assert.rejects(call('delete_everything', {}), /Unknown tool/)
  })

  it('refuses a wrong key as the API does: 401 and the error envelope, before any MCP message is read', async () => {
    const wrong = 'sk_test_000000000000000000000000000000zz'
    await assert.rejects(mcpClient(base, wrong), (error: unknown) => {
      assert.ok(error instanceof StreamableHTTPError)
      assert.equal(error.code, 401)
      assert.match(error.message, /"code":"invalid_api_key"/)
      return true
    })
    const raw = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    })
    assert.equal(raw.status, 401)
    assert.equal(((await raw.json()) as { error: { code: string } }).error.code, 'missing_api_key')
    const get = await fetch(`${base}/mcp`)
    assert.deepEqual([get.status, get.headers.get('allow')], [405, 'POST'])
  })

  it('logs the tools’ API calls as any client’s, the tool named in their User-Agent', async () => {
    await t.deps.requestLogs.flush()
    const res = await t.request(key, { method: 'GET', url: '/v1/request_logs?limit=100' })
    assert.equal(res.statusCode, 200, res.body)
    const logs = res.json().data as Array<{
      method: string
      route: string
      status: number
      user_agent: string
      idempotency_key: string | null
      replayed: boolean
      client_ip: string
    }>
    const sends = logs.filter(
      (l) =>
        l.route === '/v1/submissions/from_html' &&
        l.user_agent.startsWith('paraph-mcp (http; send_for_signature)'),
    )
    assert.ok(sends.length >= 2, JSON.stringify(logs.map((l) => `${l.method} ${l.route} ${l.user_agent}`)))
    assert.ok(
      sends.every((l) => l.user_agent.endsWith('TestAgent/1.0') && l.idempotency_key?.startsWith('mcp_')),
    )
    assert.ok(sends.some((l) => l.replayed))
    assert.ok(logs.some((l) => l.route === '/v1/submitters/{id}/remind' && l.status === 429))
    assert.ok(
      logs.some((l) => l.route === '/v1/verify' && l.user_agent.startsWith('paraph-mcp (http; verify_pdf)')),
    )
    assert.ok(logs.every((l) => l.client_ip === '127.0.0.1'))
  })
})
