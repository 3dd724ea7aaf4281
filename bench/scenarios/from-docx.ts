// Issue #14, the other rows:
// - from_docx of a 3-page DOCX (test/fixtures/docx.ts: headings, lists, a table, an image, five
//   tags, page breaks) against from_html of the HTML that DOCX converts to, both through
//   `paraph serve` on SQLite, one request at a time, rounds alternating. Target: the DOCX's p50
//   below 1.5 × the HTML's.
// - Hostile inputs through the same server, each timed and with the server's memory (its RSS and
//   its children's: the DOCX converters, the PDF readers) sampled every 20 ms: an HTML of 10 000
//   tags (refused: at most 500), a 5 MB single-line HTML (refused by the 4 MiB body limit; the
//   renderer's own 5 MB row is in the from_html scenario), and a DOCX zip bomb (refused by the zip
//   gate before anything is inflated). Each must be answered within 2 s, the server growing less
//   than 200 MB.

import { closeDocxConverter, docxToHtml } from '../../src/render/docx-to-html.ts'
import { contractDocx, zipBombDocx } from '../../test/fixtures/docx.ts'
import { postCreation, TAGGED_SUBMITTERS } from '../html-render.ts'
import { treeRssKiB } from '../processes.ts'
import { type LimitRow, type LimitScenario, oneAtATimeFigures, oneRequestFigures } from '../scenario.ts'
import { type RunningServer, startParaph } from '../servers.ts'
import { percentile } from '../stats.ts'

const NAME = 'from_docx, and hostile HTML and DOCX'
const ROUNDS = 6
const PER_ROUND = 5
const fixed = (n: number) => n.toFixed(1)
const SUBMITTERS = [
  { role: 'A', email: 'client@example.eu' },
  { role: 'B', email: 'provider@example.eu' },
]

async function timed(server: RunningServer, path: string, body: unknown, expected: number): Promise<number> {
  const started = performance.now()
  const { status, text } = await postCreation(server, path, body)
  const ms = performance.now() - started
  if (status !== expected)
    throw new Error(`${path} answered ${status}, not ${expected}: ${text.slice(0, 300)}`)
  return ms
}

async function docxAgainstHtml(server: RunningServer): Promise<LimitRow> {
  const docx = (await contractDocx()).toString('base64')
  const html = await docxToHtml(docx)
  closeDocxConverter()
  const fromDocx = () =>
    timed(
      server,
      '/v1/submissions/from_docx',
      { name: 'Contract', file: docx, submitters: SUBMITTERS, send_email: false },
      201,
    )
  const fromHtml = () =>
    timed(
      server,
      '/v1/submissions/from_html',
      { name: 'Contract', html, submitters: SUBMITTERS, send_email: false },
      201,
    )
  for (let i = 0; i < 3; i++) {
    await fromDocx()
    await fromHtml()
  }
  const docxMs: number[] = []
  const htmlMs: number[] = []
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < PER_ROUND; i++) docxMs.push(await fromDocx())
    for (let i = 0; i < PER_ROUND; i++) htmlMs.push(await fromHtml())
  }
  const htmlP50 = percentile(htmlMs, 50)
  return {
    scenario: NAME,
    case: 'from_docx, 3-page DOCX, one at a time',
    figures: oneAtATimeFigures(docxMs),
    reference: `from_html of its HTML: p50 ${fixed(htmlP50)} ms`,
    notes: [
      `from_docx p50 ${fixed(percentile(docxMs, 50))} ms, p90 ${fixed(percentile(docxMs, 90))} ms; from_html of the same document's HTML (${(html.length / 1024).toFixed(0)} KB) p50 ${fixed(htmlP50)} ms, p90 ${fixed(percentile(htmlMs, 90))} ms`,
    ],
    judged: {
      label: 'p50',
      value: percentile(docxMs, 50),
      max: 1.5 * htmlP50,
      unit: 'ms',
      derivation: '1.5 × from_html',
    },
  }
}

async function hostile(
  server: RunningServer,
  label: string,
  path: string,
  body: unknown,
  expected: number,
): Promise<LimitRow> {
  const before = (treeRssKiB(server.process) ?? 0) / 1024
  let peak = before
  const sampler = setInterval(() => {
    peak = Math.max(peak, (treeRssKiB(server.process) ?? 0) / 1024)
  }, 20)
  let ms: number
  try {
    ms = await timed(server, path, body, expected)
  } finally {
    clearInterval(sampler)
  }
  peak = Math.max(peak, (treeRssKiB(server.process) ?? 0) / 1024)
  return {
    scenario: NAME,
    case: label,
    figures: oneRequestFigures(ms),
    reference: `answered ${expected}; server + children RSS ${fixed(before)} MB before`,
    notes: [
      `${fixed(ms)} ms, answered ${expected}; server + children RSS ${fixed(before)} → peak ${fixed(peak)} MB`,
    ],
    // Judged on time; a growth of 200 MB or more fails the row whatever the time.
    judged: {
      label: 'answered in',
      value: peak - before < 200 ? ms : Number.POSITIVE_INFINITY,
      max: 2000,
      unit: 'ms',
      derivation: `2 s, and RSS growth ${fixed(peak - before)} MB < 200 MB`,
    },
  }
}

export const fromDocxScenario: LimitScenario = {
  kind: 'limit',
  name: NAME,
  description:
    'paraph serve (SQLite): from_docx of a 3-page DOCX against from_html of its HTML, alternating; then a 10 000-tag HTML, a 5 MB single-line HTML and a DOCX zip bomb, each timed with the server memory sampled',
  goal: 'from_docx p50 < 1.5 × from_html of its HTML; hostile inputs answered within 2 s, server growth < 200 MB',
  run: async () => {
    const server = await startParaph(null)
    try {
      const rows = [await docxAgainstHtml(server)]
      const tags = `<p>${Array.from({ length: 10_000 }, (_, i) => `{{F${i};role=Provider}}`).join(' ')}</p>`
      const line = `<p>${'word '.repeat(1_000_000)}{{S;role=Provider}} {{C;role=Client}}</p>`
      const bomb = (await zipBombDocx()).toString('base64')
      const cases: Array<[string, string, Record<string, unknown>, number]> = [
        ['10 000-tag HTML', 'from_html', { name: 'Tags', html: tags, submitters: TAGGED_SUBMITTERS }, 422],
        [
          '5 MB single-line HTML',
          'from_html',
          { name: 'Line', html: line, submitters: TAGGED_SUBMITTERS },
          413,
        ],
        [
          'DOCX zip bomb (200 MiB of zeros)',
          'from_docx',
          { name: 'Bomb', file: bomb, submitters: SUBMITTERS },
          422,
        ],
      ]
      for (const [name, route, body, status] of cases)
        rows.push(await hostile(server, name, `/v1/submissions/${route}`, body, status))
      return rows
    } finally {
      await server.stop()
    }
  },
}
