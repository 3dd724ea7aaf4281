// Every list of the API walked with the SDK's `list` (docs/api.md#pagination, docs/sdks.md#pagination):
// three items or more of each made through the SDK, pages of two, each item once, the pages
// following `next_cursor` (seen in the fault proxy's log), the same items as one large page. The
// lists walked are checked against the generated operation table, so a new list is walked or fails.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { WebhookReceiver } from '../../test/fixtures/webhook-receiver.ts'
import { pdfBody, type SdkApp, startSdkApp, templateBody, work } from './sdk-test-kit.ts'
import { OPERATIONS } from './src/generated/operations.gen.ts'
import type { ListOperationId, Paraph } from './src/paraph.ts'

describe('the SDK walks every list across pages', () => {
  let s: SdkApp
  let receiver: WebhookReceiver
  let paraph: Paraph
  const made: Partial<Record<ListOperationId, { path: Record<string, string> }>> = {}

  before(async () => {
    s = await startSdkApp()
    receiver = await WebhookReceiver.start()
    paraph = s.client()
    const templates = []
    for (const n of [1, 2, 3])
      templates.push(await paraph.createTemplate({ body: await templateBody(`NDA ${n}`) }))
    const endpoints = []
    for (const n of [1, 2, 3]) {
      endpoints.push(
        await paraph.createWebhookEndpoint({
          body: { url: receiver.url(`/hook${n}`), events: ['submission.created'] },
        }),
      )
    }
    const submissions = []
    for (const template of templates) {
      submissions.push(
        await paraph.createSubmission({
          body: {
            template_id: template.id,
            send_email: false,
            submitters: [{ role: 'signer', email: 'ann@example.eu' }],
          },
        }),
      )
    }
    submissions.push(await paraph.createSubmissionFromPdf({ body: await pdfBody('bob@example.eu') }))
    let bulk = ''
    for (const n of [1, 2, 3]) {
      const rows = [1, 2, 3].map((r) => ({
        submitters: [{ role: 'signer', email: `row${n}.${r}@example.eu` }],
      }))
      const sent = await paraph.createBulkSend({
        body: { template_id: templates[0]!.id, rows, send_email: false },
      })
      bulk = (sent as { id: string }).id
    }
    for (const submission of submissions.slice(0, 3)) {
      await paraph.createLegalHold({ body: { submission_ids: [submission.id], reason: 'Dispute 42' } })
    }
    await work(s.t)
    await s.t.deps.requestLogs.flush()
    made.listWebhookDeliveries = { path: { id: endpoints[0]!.id } }
    made.listBulkSendRows = { path: { id: bulk } }
  })
  after(async () => {
    await receiver.close()
    await s.close()
  })

  it('each list: pages of 2, every item once, the same items as one page of 100', async () => {
    const lists = (Object.keys(OPERATIONS) as Array<keyof typeof OPERATIONS>).filter(
      (id): id is ListOperationId => OPERATIONS[id].list,
    )
    assert.equal(lists.length, 10)
    for (const id of lists) {
      const args = made[id] ?? {}
      s.proxy.clear()
      const walked: string[] = []
      for await (const item of paraph.list(id, { ...args, query: { limit: 2 } } as never))
        walked.push(identity(item))
      const pageRequests = [...s.proxy.requests]
      const pages = pageRequests.length
      const whole = (await paraph.call(id, { ...args, query: { limit: 100 } } as never)) as {
        data: unknown[]
      }
      assert.ok(walked.length >= 3, `${id}: ${walked.length} items`)
      assert.equal(new Set(walked).size, walked.length, `${id}: each item once`)
      assert.equal(pages, Math.ceil(walked.length / 2), `${id}: ${pages} pages for ${walked.length} items`)
      assert.ok(
        pageRequests.slice(1).every((r) => /[?&]cursor=/.test(r.path) && /[?&]limit=2\b/.test(r.path)),
        `${id}: later pages carry the cursor and the limit`,
      )
      // The request log grows with the walk's own requests (newest first): compare what was there.
      const wholeIds = whole.data.map(identity)
      const comparable = id === 'listRequestLogs' ? wholeIds.filter((x) => walked.includes(x)) : wholeIds
      assert.deepEqual(walked, comparable, `${id}: the same items, in the same order`)
    }
  })
})

/** An item's id, or its row number (bulk send rows). */
function identity(item: unknown): string {
  const { id, row } = item as { id?: string; row?: number }
  return id ?? `row ${row}`
}
