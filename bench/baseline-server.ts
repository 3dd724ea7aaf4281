// The yardstick for bench rows: bare Fastify 5 routes answering the same JSON as Paraph's
// GET /v1/health and GET /v1/submissions/{id}, with no auth, rate limit, logging, request ids or
// database. Run in its own process by run.ts.
import Fastify from 'fastify'

const BODY = {
  object: 'health',
  status: 'ok',
  environment: 'test',
  livemode: false,
  account_id: 'acct_AAAAAAAAAAAAAAAAAAAAAAAA',
}

// Same keys, nesting and about the same size (2.7 KB) as Paraph's GET /v1/submissions/{id} with
// three submitters and their three signature fields (the field report); only `id`
// comes from the request, like a lookup would.
const AT = '2026-01-15T10:00:00.000Z'
const SIGNING = 'http://127.0.0.1:3000/s/'
const submitter = (role: string, slug: string) => ({
  id: `sbm_${slug}AA`,
  object: 'submitter',
  submission_id: 'sub_AAAAAAAAAAAAAAAAAAAAAAAA',
  role,
  email: `${role}@example.eu`,
  name: null,
  phone: null,
  external_id: null,
  metadata: {},
  status: 'pending',
  send_email: true,
  require_email_2fa: false,
  signing_url: `${SIGNING}${slug}`,
  opened_at: null,
  signed_at: null,
  declined_at: null,
  decline_reason: null,
  created_at: AT,
  updated_at: AT,
})
const field = (name: string, role: string, y: number) => ({
  name,
  type: 'signature',
  role,
  required: true,
  readonly: false,
  options: null,
  areas: [
    {
      document: 0,
      page: 1,
      x: 59.53,
      y: y * 841.89,
      w: 119.06,
      h: 42.09,
      fractions: { x: 0.1, y, w: 0.2, h: 0.05 },
    },
  ],
})
const SUBMISSION = {
  id: '',
  object: 'submission',
  status: 'sent',
  template_id: 'tpl_AAAAAAAAAAAAAAAAAAAAAAAA',
  submitters: [
    submitter('a', 'poPrYH8zet7mZGoJig24FN'),
    submitter('b', 'sAGVm3eU2sEATYaUdblO4B'),
    submitter('c', '9CCah79PWAUvxHRKjKeOS9'),
  ],
  send_email: true,
  signing_order: 'preserved',
  expires_at: null,
  redirect_url: null,
  bcc_email: null,
  reply_to: null,
  message: { subject: null, body: null },
  metadata: {},
  audit_log_url: 'http://127.0.0.1:3000/v1/submissions/sub_AAAAAAAAAAAAAAAAAAAAAAAA/audit_log',
  created_at: AT,
  updated_at: AT,
  cancelled_at: null,
  declined_at: null,
  finalization_error: null,
  fields: [field('S1', 'a', 0.1), field('S2', 'b', 0.3), field('S3', 'c', 0.5)],
}

const port = Number(process.env.PORT)
if (!Number.isInteger(port) || port <= 0) throw new Error('baseline-server: set PORT to a free port')

const app = Fastify({ logger: false })
app.get('/v1/health', async () => BODY)
app.get<{ Params: { id: string } }>('/v1/submissions/:id', async (request) => ({
  ...SUBMISSION,
  id: request.params.id,
}))

const address = await app.listen({ port, host: '127.0.0.1' })
console.log(`baseline listening on ${address}`)

const stop = () => void app.close()
process.once('SIGTERM', stop)
process.once('SIGINT', stop)
