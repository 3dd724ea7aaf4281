// Issue #35 Deliver 4 end to end, in a real browser against the real server and worker: a list is
// uploaded on "Send to many" (a BOM, CRLF, a quoted comma, a quoted line break), its columns mapped
// (a role without its e-mail column holds the check back), the dry run shows the one bad row with
// its message under the file's own column name, the send (its answer lost once: the retry reuses
// the Idempotency-Key, one job) is followed to completed_with_errors with the failed row listed and
// downloaded with its errors; the job's submissions are listed. Also: the page in French, axe-core,
// and screenshots at 375 and 1280 px (/tmp/bulkui-*.png, besides the kit's own).
import assert from 'node:assert/strict'
import { mkdir, readFile } from 'node:fs/promises'
import { after, before, describe, it } from 'node:test'
import type { Browser, BrowserContextOptions, Page } from 'playwright-core'
import { freePort, launchBrowser } from '../../test/browser.ts'
import { check, openConsole, SHOTS } from '../../test/console/console-browser-kit.ts'
import { type ConsoleClient, signedInMember } from '../../test/console/console-client.ts'
import { base64, post } from '../../test/documents.ts'
import { a4 } from '../../test/fixtures/pdfs.ts'
import { type MailTestApp, startMailApp } from '../../test/mail.ts'
import { until } from '../../test/paraph-process.ts'

const area = (x: number, y: number) => [{ page: 1, x, y, w: 0.3, h: 0.05 }]

/** A contract for an Employee and their Manager, with an office and a start date to prefill. */
async function contractTemplate(m: MailTestApp): Promise<string> {
  const res = await post(m.t, m.key, '/v1/templates', {
    name: 'Contract 2027',
    documents: [
      {
        pdf_base64: base64(await a4()),
        fields: [
          { name: 'Employee signature', role: 'Employee', areas: area(0.1, 0.8) },
          { name: 'Office', type: 'text', role: 'Employee', required: false, areas: area(0.1, 0.6) },
          { name: 'Start date', type: 'date', role: 'Employee', required: false, areas: area(0.1, 0.7) },
          { name: 'Manager signature', role: 'Manager', areas: area(0.6, 0.8) },
        ],
      },
    ],
  })
  assert.equal(res.statusCode, 201, res.body)
  return res.json().id
}

/** The list: a BOM, CRLF, a quoted comma (name and office), a quoted line break (notes); row 2's date is wrong. */
const LIST = [
  '\uFEFFWork e-mail,Full name,Manager e-mail,Office,Start,Reference,Notes',
  'ann@example.eu,"Martin, Ann",lea@example.eu,"Lyon, 3e",2027-01-04,emp-1,"line one\r\nline two"',
  'bob@example.eu,Bob Stone,lea@example.eu,Paris,04/01/2027,emp-2,"needs ""desk"""',
  'cy@example.eu,Cy Ray,lea@example.eu,Nice,2027-01-05,emp-3,',
].join('\r\n')

/** Screenshots at both widths where the brief wants them, beside the kit's checks. */
async function shots(page: Page, name: string): Promise<void> {
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 })
    await page.screenshot({ path: `/tmp/bulkui-${name}-${width}.png`, fullPage: true })
  }
  await page.setViewportSize({ width: 1280, height: 900 })
}

describe('sending a template to many from the console, in a browser', () => {
  let m: MailTestApp
  let base: string
  let browser: Browser
  let admin: ConsoleClient
  let templateId: string

  before(async () => {
    const port = await freePort()
    base = `http://127.0.0.1:${port}`
    m = await startMailApp({ PUBLIC_URL: base, SIGNING_URL: base, RATE_LIMIT_TEST: '100000' })
    const accountId = (await m.t.request(m.key, { method: 'GET', url: '/v1/health' })).json().account_id
    templateId = await contractTemplate(m)
    admin = await signedInMember(m.t, accountId, { email: 'ada@example.eu' })
    await m.t.app.listen({ port, host: '127.0.0.1' })
    browser = await launchBrowser()
    await mkdir(SHOTS, { recursive: true })
  })
  after(async () => {
    await browser?.close()
    await m?.close()
  })

  async function consolePage(path: string, options: BrowserContextOptions = {}): Promise<Page> {
    const { page } = await openConsole(browser, base, admin, 'en-GB', { acceptDownloads: true, ...options })
    await page.goto(`${base}/console${path}`)
    return page
  }

  const mapTo = (page: Page, column: string, target: string) =>
    page.getByLabel(`What the column “${column}” holds`).selectOption(target)

  /** Runs the worker until the job has ended; its answer. */
  async function jobEnded(id: string) {
    return until(`bulk send ${id} ended`, async () => {
      await m.work()
      const job = (await m.t.request(m.key, { method: 'GET', url: `/v1/bulk_sends/${id}` })).json()
      return ['completed', 'completed_with_errors', 'cancelled'].includes(job.status) ? job : undefined
    })
  }

  it('maps, checks, sends once, follows the job to completed_with_errors and downloads the failed row', async () => {
    const page = await consolePage('/templates')
    await page.getByRole('link', { name: 'Send to many “Contract 2027”' }).click()
    await page.getByRole('heading', { name: 'Send “Contract 2027” to many' }).waitFor()
    await check(page, 'bulk-send-empty', [1280, 375])

    await page.locator('#bulk-file').setInputFiles({
      name: 'contracts.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(LIST, 'utf8'),
    })
    await page.getByText('contracts.csv: 3 rows, 7 columns.').waitFor()
    // Guessed from the headers: the manager's address, the office, the reference; notes ignored.
    assert.equal(
      await page.getByLabel('What the column “Manager e-mail” holds').inputValue(),
      'Manager.email',
    )
    assert.equal(await page.getByLabel('What the column “Office” holds').inputValue(), 'field:Office')
    assert.equal(await page.getByLabel('What the column “Reference” holds').inputValue(), 'external_id')
    assert.equal(await page.getByLabel('What the column “Notes” holds').inputValue(), '')
    // The quoted comma and line break are one cell each, as the first row shows them.
    await page.locator('.bulk-sample', { hasText: 'Martin, Ann' }).waitFor()
    await page.locator('.bulk-sample', { hasText: 'Lyon, 3e' }).waitFor()

    // No column for the Employee's address yet: the check is held back, and says why.
    const checkButton = page.getByRole('button', { name: 'Check the rows' })
    assert.equal(await checkButton.isDisabled(), true)
    await page
      .getByText('Choose the column holding the e-mail address of Employee: every row needs one per signer.')
      .waitFor()
    await mapTo(page, 'Work e-mail', 'Employee.email')
    await mapTo(page, 'Full name', 'Employee.name')
    await mapTo(page, 'Start', 'field:Start date')
    await mapTo(page, 'Notes', 'metadata')
    await page.getByLabel('Metadata key for “Notes”').fill('notes')
    await check(page, 'bulk-send-mapping', [1280, 375])
    await shots(page, 'mapping')

    const checks: string[] = []
    const sends: string[] = []
    page.on('request', (request) => {
      if (request.method() !== 'POST' || !request.url().endsWith('/v1/bulk_sends')) return
      const body = JSON.parse(request.postData() ?? '{}')
      ;(body.dry_run ? checks : sends).push(request.headers()['idempotency-key'] ?? '')
    })
    await checkButton.click()
    await page.getByText('2 rows ready, 1 with errors').waitFor()
    const error = page.locator('table.bulk-errors tbody tr')
    assert.equal(await error.count(), 1)
    assert.deepEqual(await error.locator('td').allInnerTexts(), [
      '2',
      'Start',
      (await error.locator('td').nth(2).innerText()).trim(),
    ])
    assert.match(await error.locator('td').nth(2).innerText(), /YYYY-MM-DD/)
    assert.deepEqual(await page.locator('table.bulk-ready tbody tr td:first-child').allInnerTexts(), [
      '1',
      '3',
    ])
    assert.equal(checks.length, 1)
    await check(page, 'bulk-send-report', [1280, 375])
    await shots(page, 'report')

    // The first send's answer is lost on the way back: the retry sends the same key, one job is made.
    let lost = false
    await page.route('**/v1/bulk_sends', async (route) => {
      const body = JSON.parse(route.request().postData() ?? '{}')
      if (body.dry_run || lost) return route.continue()
      lost = true
      await route.fetch()
      await route.abort('connectionreset')
    })
    await page.getByRole('button', { name: 'Send 2' }).click()
    const dialog = page.getByRole('dialog', { name: 'Send 2 submissions?' })
    await dialog
      .getByText('2 signing requests go out by e-mail now; later signers are mailed when their turn comes.')
      .waitFor()
    await dialog.getByText('The row with errors is not sent: it is listed as failed.').waitFor()
    await dialog.getByRole('button', { name: 'Send 2' }).click()
    await dialog.getByText('The server could not be reached. Check your connection.').waitFor()
    await dialog.getByRole('button', { name: 'Send 2' }).click()
    await page.waitForURL(/\/console\/bulk-sends\/bulk_[0-9A-Za-z]{24}/)
    assert.equal(sends.length, 2)
    assert.equal(sends[0], sends[1], 'the retry reuses the Idempotency-Key')
    assert.notEqual(sends[0], checks[0])
    const jobs = (await m.t.request(m.key, { method: 'GET', url: '/v1/bulk_sends' })).json().data
    assert.equal(jobs.length, 1, 'one job, whatever the retry sent')
    const jobId: string = jobs[0].id
    assert.ok(page.url().includes(jobId))

    const job = await jobEnded(jobId)
    assert.equal(job.status, 'completed_with_errors')
    assert.deepEqual([job.counts.created, job.counts.failed], [2, 1])
    await page.getByText('Sent, some rows failed').waitFor()
    await page.getByText('3 of 3 rows done').waitFor()
    const failed = page.locator('table.bulk-failed tbody tr')
    await failed.first().waitFor()
    assert.equal(await failed.count(), 1)
    const failedCells = await failed.locator('td').allInnerTexts()
    assert.deepEqual(failedCells.slice(0, 2), ['2', 'emp-2'])
    assert.match(failedCells[2]!, /^Start: .*YYYY-MM-DD/)
    await check(page, 'bulk-send-job', [1280, 375])
    await shots(page, 'job')

    const download = page.waitForEvent('download')
    await page.getByRole('button', { name: 'Download failed rows (CSV)' }).click()
    const csv = await readFile(await (await download).path(), 'utf8')
    const lines = csv.split('\r\n')
    assert.equal(lines[0], 'Work e-mail,Full name,Manager e-mail,Office,Start,Reference,Notes,errors')
    assert.equal(
      lines[1],
      'bob@example.eu,Bob Stone,lea@example.eu,Paris,04/01/2027,emp-2,"needs ""desk""","Start: must be a date YYYY-MM-DD (it is ""04/01/2027"")."',
    )
    assert.equal(lines.length, 3, 'the header, the failed row and the last line end')

    // The job's submissions: the two rows created, with their prefilled office.
    await page.getByRole('link', { name: 'See its submissions' }).click()
    await page.waitForURL(/\/console\/submissions\?bulk_send_id=bulk_/)
    await page.locator('tbody tr').nth(1).waitFor()
    assert.equal(await page.locator('tbody tr').count(), 2)
    await page.context().close()
  })

  it('says what is wrong with a pasted list by its line, then stops a job before its rows are created', async () => {
    const page = await consolePage(`/templates/${templateId}/send-many`)
    await page.getByRole('heading', { name: 'Send “Contract 2027” to many' }).waitFor()
    const pasted = page.getByLabel('Or paste the CSV text')
    await pasted.fill('Employee.email,Manager.email\na@example.eu,m@example.eu\nb@example.eu\n')
    await page.getByRole('button', { name: 'Read the pasted text' }).click()
    await page
      .getByRole('alert')
      .getByText('Line 3 does not have as many cells as the header has columns (1 for 2).')
      .waitFor()

    const rows = Array.from({ length: 30 }, (_, i) => `p${i}@example.eu,m@example.eu,ref-${i}`)
    await pasted.fill(['Employee.email,Manager.email,external_id', ...rows].join('\n'))
    await page.getByRole('button', { name: 'Read the pasted text' }).click()
    await page.getByText('Pasted text: 30 rows, 3 columns.').waitFor()
    await page.getByLabel('Send the signing requests by e-mail').uncheck()
    await page.getByRole('button', { name: 'Check the rows' }).click()
    await page.getByText('All 30 rows are ready.').waitFor()
    assert.equal(await page.locator('table.bulk-ready tbody tr').count(), 30)
    await page.getByRole('button', { name: 'Send 30' }).click()
    const dialog = page.getByRole('dialog', { name: 'Send 30 submissions?' })
    await dialog
      .getByText('No e-mail goes out: share each signer’s link from the submission’s page.')
      .waitFor()
    await dialog.getByRole('button', { name: 'Send 30' }).click()
    await page.waitForURL(/\/console\/bulk-sends\/bulk_/)
    const jobId = page.url().split('/').pop()!.split('?')[0]!
    await page.getByText('Waiting to start').waitFor()

    // No worker has run: every row is still waiting when the job is stopped.
    await page.getByRole('button', { name: 'Stop sending' }).click()
    const stop = page.getByRole('dialog', { name: 'Stop this send?' })
    await stop.getByText(/^The 30 rows not created yet are stopped\./).waitFor()
    await stop.getByRole('button', { name: 'Stop sending' }).click()
    await page.getByText('Send stopped.').waitFor()
    await page.locator('.badge', { hasText: 'Stopped' }).waitFor()
    assert.equal(await page.locator('.bulk-count-cancelled dd').innerText(), '30')
    assert.equal(await page.getByRole('button', { name: 'Stop sending' }).count(), 0, 'nothing left to stop')
    const job = (await m.t.request(m.key, { method: 'GET', url: `/v1/bulk_sends/${jobId}` })).json()
    assert.equal(job.status, 'cancelled')
    assert.equal(job.counts.cancelled, 30)
    await m.work()
    const submissions = await m.t.request(m.key, {
      method: 'GET',
      url: `/v1/submissions?bulk_send_id=${jobId}`,
    })
    assert.deepEqual(submissions.json().data, [], 'a stopped job creates nothing afterwards')
    await page.context().close()
  })

  it('shows the page in French', async () => {
    const page = await consolePage(`/templates/${templateId}/send-many`, { locale: 'fr-FR' })
    await page.getByRole('heading', { name: 'Envoyer « Contract 2027 » en nombre' }).waitFor()
    await page
      .getByLabel('Ou collez le texte CSV')
      .fill('Employee.email,Manager.email\r\na@example.eu,b@example.eu')
    await page.getByRole('button', { name: 'Lire le texte collé' }).click()
    await page.getByText('Texte collé : 1 ligne, 2 colonnes.').waitFor()
    await page.getByRole('button', { name: 'Vérifier les lignes' }).click()
    await page.getByText('La ligne est prête.').waitFor()
    await check(page, 'bulk-send-fr', [1280, 375])
    await shots(page, 'fr')
    await page.context().close()
  })
})
