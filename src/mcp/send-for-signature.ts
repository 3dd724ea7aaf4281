// send_for_signature (docs/mcp.md#tools): POST /v1/submissions (from a template) or
// POST /v1/submissions/from_html, with an Idempotency-Key derived from the call, so an agent that
// repeats the same call creates one submission and gets its answer back.
import { type Static, Type } from 'typebox'
import { Email, Id, Nullable, StringEnum, Timestamp } from '../http/common-schemas.ts'
import { okBody, ToolFailure } from './api-caller.ts'
import { defineTool, derivedIdempotencyKey } from './define-tool.ts'

const Signer = Type.Object(
  {
    role: Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'A role of the template (describe_template), or a role named in the HTML tags',
    }),
    email: Email,
    name: Type.Optional(Type.String({ maxLength: 200 })),
    fields: Type.Optional(
      Type.Record(
        Type.String({ maxLength: 100 }),
        Type.Union([Type.String(), Type.Number(), Type.Boolean()]),
        {
          description: 'Template only: values prefilled by field name, fields of this signer’s role',
        },
      ),
    ),
  },
  { additionalProperties: false },
)

const Input = Type.Object(
  {
    template_id: Type.Optional(Id('tpl', 'Send this template (list_templates); or give `html` instead')),
    html: Type.Optional(
      Type.String({
        description:
          'Send this HTML instead of a template: a self-contained document where {{Signature;role=ROLE}} marks where ROLE signs (other types: {{Name;type=text;role=ROLE}}, date, checkbox, initials). At most 4 MB',
      }),
    ),
    document_name: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 255,
        description: 'With `html`: the document’s name (required)',
      }),
    ),
    page_size: Type.Optional(
      StringEnum(['A4', 'Letter'] as const, { description: 'With `html`: default A4' }),
    ),
    signers: Type.Array(Signer, { minItems: 1, maxItems: 50, description: 'One per role, in signing order' }),
    send_email: Type.Optional(
      Type.Boolean({
        description: 'Mail each signer their link (default true); false: share signing_url yourself',
      }),
    ),
    expires_at: Type.Optional({ ...Timestamp, description: 'When signing closes (ISO 8601, in the future)' }),
    idempotency_key: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description:
          'Only to send an identical document to the same people again on purpose: a new value makes a new submission. Without it, the same call within 24 h returns the first submission',
      }),
    ),
  },
  { additionalProperties: false },
)

const Output = Type.Object({
  submission_id: Id('sub'),
  status: Type.String(),
  already_sent: Type.Boolean({ description: 'true: this same call was made before; nothing new was sent' }),
  signers: Type.Array(
    Type.Object({
      id: Id('sbm'),
      role: Type.String(),
      email: Nullable(Type.String()),
      signing_url: Nullable(
        Type.String({ description: 'The signer’s own link: give it to that signer only' }),
      ),
    }),
  ),
})

type Created = {
  id: string
  status: string
  submitters: Array<{ id: string; email: string | null; signing_url: string | null }>
}
type Args = Static<typeof Input>

function request(args: Args): { path: string; body: Record<string, unknown> } {
  const submitters = args.signers.map((s) => ({ ...s }))
  const common = {
    submitters,
    ...(args.send_email === undefined ? {} : { send_email: args.send_email }),
    ...(args.expires_at === undefined ? {} : { expires_at: args.expires_at }),
  }
  if (args.template_id !== undefined && args.html === undefined) {
    return { path: '/v1/submissions', body: { template_id: args.template_id, ...common } }
  }
  if (args.html !== undefined && args.template_id === undefined) {
    if (args.document_name === undefined) throw refusal('document_name', 'is required with `html`.')
    if (args.signers.some((s) => s.fields !== undefined))
      throw refusal(
        'signers',
        '`fields` prefill a template’s fields; with `html`, put the values in the HTML.',
      )
    const size = args.page_size === undefined ? {} : { size: args.page_size }
    return {
      path: '/v1/submissions/from_html',
      body: { name: args.document_name, html: args.html, ...size, ...common },
    }
  }
  throw refusal('template_id', 'give exactly one of `template_id` and `html`.')
}

function refusal(param: string, problem: string): ToolFailure {
  return new ToolFailure({
    status: 422,
    type: 'invalid_request_error',
    code: 'invalid_request',
    message: `${param}: ${problem}`,
    param,
  })
}

export const sendForSignatureTool = defineTool({
  name: 'send_for_signature',
  title: 'Send a document for signature',
  description:
    'Creates a submission: a template (template_id) or an HTML document (html + document_name) sent to its signers, each mailed a signing link unless send_email is false. Idempotent: the same arguments again within 24 h return the first submission (already_sent: true) instead of sending twice. Follow it with get_submission_status.',
  input: Input,
  output: Output,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  async run(args, api) {
    const { path, body } = request(args)
    const answer = await api.call('send_for_signature', {
      method: 'POST',
      path,
      body,
      idempotencyKey: derivedIdempotencyKey('send_for_signature', args),
    })
    const created = okBody<Created>(answer)
    const roles = args.signers.map((s) => s.role)
    return {
      submission_id: created.id,
      status: created.status,
      already_sent: answer.replayed,
      signers: created.submitters.map((s, i) => ({
        id: s.id,
        role: roles[i] ?? '',
        email: s.email,
        signing_url: s.signing_url,
      })),
    }
  },
})
