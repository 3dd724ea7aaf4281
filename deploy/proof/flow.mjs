// A signing flow against a running Paraph from outside, for the offline image proof
// (deploy/proof/offline-image.sh): readiness, a submission from HTML (Chromium), the signer's
// sign, completion by the worker, the sealed PDF and the audit trail downloaded.
//   node deploy/proof/flow.mjs BASE_URL API_KEY OUT_DIR
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'

const [base, key, out] = process.argv.slice(2)
if (!base || !key || !out) throw new Error('usage: flow.mjs BASE_URL API_KEY OUT_DIR')
const auth = { authorization: `Bearer ${key}` }
const started = Date.now()
const step = (what, extra = '') => console.log(`[flow +${Date.now() - started} ms] ${what} ${extra}`)

async function json(path, init = {}) {
  const res = await fetch(new URL(path, base), init)
  const body = await res.text()
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${res.status} ${body}`)
  return JSON.parse(body)
}

async function until(what, check, ms = 120_000) {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await check()
    if (value) return value
    if (Date.now() > deadline) throw new Error(`no ${what} within ${ms} ms`)
    // Every 2 s: the test key's limit is 100 requests a minute.
    await new Promise((resolve) => setTimeout(resolve, 2000))
  }
}

step('readyz', JSON.stringify(await json('/readyz')))
step('healthz', JSON.stringify(await json('/healthz')))
const html =
  '<!DOCTYPE html><html><body><h1>Offline image proof</h1><p>Agreed: ÅÄÖ, Ελληνικά, 日本語.</p>' +
  '<p>{{Name;role=Signer;type=text}}</p><p>{{Date;role=Signer;type=date}}</p></body></html>'
const created = await json('/v1/submissions/from_html', {
  method: 'POST',
  headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': `proof-${started}` },
  body: JSON.stringify({
    name: 'Offline image proof',
    html,
    size: 'A4',
    send_email: false,
    submitters: [{ role: 'Signer', email: 'signer@example.com' }],
  }),
})
step('created from_html', `${created.id} (${created.status})`)
const submitter = created.submitters[0]
const slug = new URL(submitter.signing_url).pathname.split('/').pop()
const form = await json(`/s/${slug}/form`)
step('signer form', `${form.fields.length} fields, state ${form.state}`)
await json(`/s/${slug}/open`, { method: 'POST' })
await json(`/s/${slug}/sign`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ values: { Name: 'Ada Lovelace', Date: '2026-11-27' } }),
})
step('signed')
const done = await until('completion', async () => {
  const s = await json(`/v1/submissions/${created.id}`, { headers: auth })
  return s.status === 'completed' ? s : undefined
})
step('completed', done.completed_at)
const documents = await json(`/v1/submissions/${created.id}/documents`, { headers: auth })
const files = { 'final.pdf': documents.signed_pdf_url, 'audit.pdf': done.audit_log_url }
for (const [name, url] of Object.entries(files)) {
  if (!url) throw new Error(`no URL for ${name} in ${JSON.stringify(documents)}`)
  const res = await fetch(url, { headers: auth })
  const bytes = Buffer.from(await res.arrayBuffer())
  if (!res.ok || bytes.subarray(0, 5).toString() !== '%PDF-') throw new Error(`${name}: ${res.status}`)
  writeFileSync(join(out, name), bytes)
  step(`downloaded ${name}`, `${bytes.length} bytes`)
}
step('flow complete')
