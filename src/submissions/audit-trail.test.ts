// The audit trail as a certificate of completion, through the signing page's
// requests and the finalization job: the consent quoted in the language each signer's page was in,
// every event in words, the images each signer drew, the completion and how to verify.
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import { Value } from 'typebox/value'
import { pdfText } from '../../test/fixtures/poppler.ts'
import { errorOf, startTestApp, type TestApp } from '../../test/harness.ts'
import { runOn } from '../../test/run-tool.ts'
import {
  createSubmission,
  everyTypeBody,
  FIRST_VALUES,
  SIGNATURE,
  signer,
  submitterRow,
} from '../../test/signing.ts'
import { jobCatalogue } from '../job-catalogue.ts'
import { drainJobs } from '../jobs/worker.ts'
import { AuditRecord } from '../pdf/audit/audit-record.ts'
import { closePdfFinalizer } from '../pdf/finalizer/finalize-pdf.ts'
import { TEXTS } from '../signing-page/page/texts.ts'

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

describe('audit trail: a certificate of completion (issue #21 item 6)', () => {
  let t: TestApp
  let key: string
  before(async () => {
    t = await startTestApp()
    key = (await t.account()).testKey
  })
  after(async () => {
    closePdfFinalizer()
    await t.close()
  })
  const get = (url: string) => t.request(key, { method: 'GET', url })

  it('quotes each consent in the language the page was in, every event in words, images once, completion last', async () => {
    const created = await createSubmission(t, key, await everyTypeBody(['first', 'second', 'third']))
    const [first, second, third] = created.submitters as [
      (typeof created.submitters)[0],
      (typeof created.submitters)[0],
      (typeof created.submitters)[0],
    ]
    const signs = [
      await signer(t, first, 'sign', { values: FIRST_VALUES, language: 'fr' }),
      // A page from before issue #21 sends no language.
      await signer(t, second, 'sign', { values: { 'second signature': SIGNATURE } }),
      await signer(t, third, 'sign', { values: { 'third signature': SIGNATURE }, language: 'de' }, 'embed'),
    ]
    for (const res of signs) assert.equal(res.statusCode, 200, res.body)
    assert.equal((await submitterRow(t, first.id)).page_language, 'fr')
    await drainJobs({ ...t.deps, catalogue: jobCatalogue(t.deps) })

    const json = (await get(`/v1/submissions/${created.id}/audit_log.json`)).json() as AuditRecord
    assert.ok(Value.Check(AuditRecord, json), JSON.stringify([...Value.Errors(AuditRecord, json)][0]))
    assert.deepEqual(
      json.submitters.map((s) => [s.consent_language, s.consent_text]),
      [
        ['fr', TEXTS.fr.consent],
        [null, TEXTS.en.consent],
        ['de', TEXTS.de.consent],
      ],
    )
    const signed = json.events.filter((e) => e.type === 'submitter.signed').map((e) => e.description)
    assert.deepEqual(signed, [
      'Signed by FIRST (first@example.eu) from 203.0.113.7 through the signing link.',
      'Signed by SECOND (second@example.eu) from 203.0.113.7 through the signing link.',
      "Signed by THIRD (third@example.eu) from 203.0.113.7 in the form embedded in the sender's application.",
    ])
    assert.ok(json.events.every((e) => e.description && !e.description.startsWith('Event ')))
    const final = sha256(
      (
        await t.app.inject({
          method: 'GET',
          url: new URL((await get(`/v1/submissions/${created.id}/documents`)).json().signed_pdf_url).pathname,
        })
      ).rawPayload,
    )
    assert.equal(
      json.verification,
      `Anyone can check the final PDF: its SHA-256 is ${final}; open it in a PDF reader to see Paraph's seal valid over the whole file.`,
    )
    const lastSigned = json.submitters
      .map((s) => s.signed_at!)
      .sort()
      .at(-1)
    assert.equal(
      json.completion,
      `Completed on ${lastSigned} — all 3 signers signed; the final PDF was sealed by Paraph at ${json.completed_at}.`,
    )

    const pdf = (await get(`/v1/submissions/${created.id}/audit_log`)).rawPayload
    const pages = (await pdfText(pdf))
      .split('\f')
      .slice(0, -1)
      .map((p) => p.replace(/\s+/g, ' ').trim())
    const text = pages.join(' ')
    for (const part of [
      `accepted by signing, in French (fr): “${TEXTS.fr.consent}”`,
      `accepted by signing, in German (de): “${TEXTS.de.consent}”`,
      "the page's language was not recorded: the English wording",
      ...signed,
      json.verification!,
    ]) {
      assert.ok(text.includes(part!), `audit PDF lacks: ${part}`)
    }
    assert.ok(
      pages
        .at(-1)!
        .endsWith(`${json.completion} Audit trail · ${created.id} · page ${pages.length} of ${pages.length}`),
    )
    // The signature (drawn by all three: the same PNG) and the initials: two images, each embedded once.
    const { stdout } = await runOn(pdf, 'pdfimages', ['-list'])
    const rows = stdout
      .split('\n')
      .slice(2)
      .filter(Boolean)
      .map((l) => l.trim().split(/\s+/))
    const images = rows.filter((columns) => columns[2] === 'image')
    assert.equal(images.length, 4, stdout)
    assert.equal(new Set(images.map((columns) => columns[10])).size, 2, stdout)
  })

  it('keeps the language of a refusal; refuses a language the page does not have', async () => {
    const created = await createSubmission(t, key, await everyTypeBody(['first']))
    const [first] = created.submitters
    const unknown = await signer(t, first!, 'sign', { values: FIRST_VALUES, language: 'it' })
    assert.equal(unknown.statusCode, 422, unknown.body)
    assert.equal(errorOf(unknown).code, 'invalid_request')
    const declined = await signer(t, first!, 'decline', { reason: 'Wrong amount', language: 'es' })
    assert.equal(declined.statusCode, 200, declined.body)
    assert.equal((await submitterRow(t, first!.id)).page_language, 'es')
  })
})
