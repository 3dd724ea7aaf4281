import fjs from 'fast-json-stringify'
const { getSubmission } = await import('./src/submissions/get-submission.ts') as any
const { Submission } = await import('./src/submissions/submission-schemas.ts') as any
const src = (await import('node:fs')).readFileSync('bench/baseline-server.ts', 'utf8')
// take a sample body by starting the baseline module's object: simpler to build from the JSON of the bare route
const res = await fetch('http://127.0.0.1:1').catch(() => null)
const schema = getSubmission.schema.response[200]
const withFields = fjs(schema)
const without = fjs(Submission)
const AT = '2026-01-15T10:00:00.000Z'
const submitter = (role: string, slug: string) => ({ id: `sbm_${slug}AA`, object: 'submitter', submission_id: 'sub_AAAAAAAAAAAAAAAAAAAAAAAA', role, email: `${role}@example.eu`, name: null, phone: null, external_id: null, metadata: {}, status: 'pending', send_email: true, require_email_2fa: false, signing_url: `x${slug}`, opened_at: null, signed_at: null, declined_at: null, decline_reason: null, created_at: AT, updated_at: AT })
const field = (name: string, role: string, y: number) => ({ name, type: 'signature', role, required: true, readonly: false, options: null, areas: [{ document: 0, page: 1, x: 59.53, y: y * 841.89, w: 119.06, h: 42.09, fractions: { x: 0.1, y, w: 0.2, h: 0.05 } }] })
const body: any = { id: 'sub_AAAAAAAAAAAAAAAAAAAAAAAA', object: 'submission', status: 'sent', template_id: 'tpl_AAAAAAAAAAAAAAAAAAAAAAAA', submitters: [submitter('a','1'), submitter('b','2'), submitter('c','3')], send_email: true, signing_order: 'preserved', expires_at: null, redirect_url: null, bcc_email: null, reply_to: null, message: { subject: null, body: null }, metadata: {}, audit_log_url: 'http://x/audit_log', created_at: AT, updated_at: AT, cancelled_at: null, declined_at: null, finalization_error: null, fields: [field('S1','a',0.1), field('S2','b',0.3), field('S3','c',0.5)] }
for (const [name, f] of [['fjs with fields', withFields], ['fjs without', without], ['JSON.stringify', JSON.stringify]] as const) {
  for (let i = 0; i < 20000; i++) f(body)
  const t = process.hrtime.bigint(); const N = 100000
  for (let i = 0; i < N; i++) f(body)
  console.log(name, Number(process.hrtime.bigint() - t) / N / 1000, 'µs', f(body).length)
}
