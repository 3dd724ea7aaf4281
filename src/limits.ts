// Every size and time limit the service enforces beyond what the schemas say, in one place, with
// the table the OpenAPI description and docs/api.md show (docs/api.md#limits: those the API leaves
// open).
import { MAX_URL_LENGTH } from './lib/url-length.ts'

export const LIMITS = {
  /** Pages of one PDF (intake refuses more as invalid_pdf). */
  pdfPages: 2000,
  /** Decoded size of one PDF (docs/api.md#limits). */
  pdfBytes: 50 * 1024 * 1024,
  /** Characters of a URL given to fetch, or redirected to (PDF URLs, webhook URLs). */
  urlLength: MAX_URL_LENGTH,
  /** Request body of JSON routes. */
  jsonBodyBytes: 1024 * 1024,
  /** Request body of the routes that take PDFs inline (docs/api.md#limits: 4.5 MB). */
  pdfBodyBytes: 4.5 * 1024 * 1024,
  /** Request body of a signer's `sign`: PNG signatures (512 KiB each, in base64) for every field. */
  signBodyBytes: 4.5 * 1024 * 1024,
  /** Nesting of a JSON body: no route reads deeper than a few levels. */
  jsonDepth: 32,
  /** Fetching a PDF URL: to connect, in all, and redirects followed. */
  pdfUrlConnectMs: 10_000,
  pdfUrlTotalMs: 60_000,
  pdfUrlRedirects: 3,
  /** One webhook POST, in all (docs/security.md#webhook-signatures), and the answer kept of it. */
  webhookTotalMs: 10_000,
  webhookResponseBytes: 64 * 1024,
  /** Active webhook endpoints per account and environment (docs/api.md#limits). */
  webhookEndpoints: 25,
  /** Request body of from_html and from_docx (docs/api.md#limits: 4 MB). */
  htmlBodyBytes: 4 * 1024 * 1024,
  /** `{{…}}` tags in one HTML or DOCX document (as many fields as from_pdf takes). */
  tagsPerDocument: 500,
  /** Pages an HTML document (from_html, from_docx) may render to: it is the caller's input (422). */
  htmlPages: 200,
  /**
   * Elements nested in one another in an HTML document (from_html, from_docx). Chromium's parser
   * stops nesting at 512 too; deeper, the tag finder's walk and the serializer would overflow the
   * stack (a 500 before this limit).
   */
  htmlDepth: 512,
  /** Elements an HTML document (from_html, from_docx) may make once parsed. */
  htmlElements: 100_000,
  /** Finding the tags of one document, in a child process (html_render_failed beyond). */
  htmlTagMs: 10_000,
  /** One HTML render, from taking a render slot to the finished PDF (html_render_failed beyond). */
  htmlRenderMs: 20_000,
  /** Renders at once per process, and renders waiting for one of those slots (beyond: refused). */
  htmlRenders: 2,
  htmlRenderQueue: 8,
  /**
   * Shared fairly: `htmlRenders` is what one account may run at once; this many more
   * slots are kept for the other accounts (so a process runs at most htmlRenders + this), and one
   * account keeps at most htmlRenderQueuePerAccount of the waiting places.
   */
  htmlRenderReserve: 1,
  htmlRenderQueuePerAccount: 4,
  /** A DOCX as base64 characters (docs/api.md#limits: 4 MB), hence at most 3 MiB of file. */
  docxBase64Chars: 4 * 1024 * 1024,
  /** The DOCX's ZIP, read before anything is inflated (docs/security.md#hostile-pdf-and-docx-inputs). */
  docxEntries: 1000,
  docxUncompressedBytes: 50 * 1024 * 1024,
  /** Uncompressed ÷ compressed of one entry, counted only above docxRatioFloorBytes. */
  docxRatio: 100,
  docxRatioFloorBytes: 64 * 1024,
  /** Converting one DOCX to HTML (mammoth, in a child process), and the HTML handed to Chromium. */
  docxConvertMs: 20_000,
  docxHtmlBytes: 8 * 1024 * 1024,
  /**
   * Opening one PostgreSQL connection (beyond: 500 db_error), and waiting for a free pooled one
   * under load. While the database is away, requests answer within a second.
   */
  dbConnectMs: 1000,
  /**
   * The rest of a refused request's body read and thrown away before its error is sent, so the
   * client can read the answer (http/drain-body.ts); past these, sent anyway and closed.
   */
  drainBodyBytes: 64 * 1024 * 1024,
  drainBodyMs: 30_000,
  dbPoolWaitMs: 10_000,
  /** How long `serve` and `worker` wait at start for a PostgreSQL that cannot be reached yet. */
  dbStartWaitMs: 30_000,
  /**
   * A signer's document as it stands: made in one child process per server process,
   * one at a time, each within this time; this many made or waiting at once per process (beyond:
   * 503 `current_pdf_busy`). Each version of the values is made once, then served from storage.
   */
  currentPdfMs: 60_000,
  currentPdfQueue: 8,
  /**
   * The dates a `date` field accepts (signing and prefilled values), inclusive: a year 0
   * or 9999 is a typo or a probe, and would be stamped on a sealed PDF as it is.
   */
  fieldDateMin: '1900-01-01',
  fieldDateMax: '2200-12-31',
  /**
   * A signer's saved progress (docs/api.md#saving-progress): one request's body (a signature and
   * initials, 512 KiB each as base64, with the rest), and all that is kept for one signer, each
   * image counted once.
   */
  progressBodyBytes: 2 * 1024 * 1024,
  progressBytes: 2 * 1024 * 1024,
  /**
   * One RFC 3161 request to TSA_URL, in all (beyond: the seal fails and the
   * finalization is retried), and the most of its answer read. A token with the TSA's certificate
   * is 2–6 KB; /Contents reserves this much more for it in every seal.
   */
  tsaTimeoutMs: 10_000,
  tsaResponseBytes: 16 * 1024,
} as const

/** The limits as a Markdown table, for the API description. */
export function limitsMarkdown(): string {
  const mib = (bytes: number) => `${bytes / 1024 / 1024} MiB (${bytes} bytes)`
  const rows = [
    ['Request body, JSON routes', mib(LIMITS.jsonBodyBytes), '413 `request_too_large`'],
    [
      'Request body, `from_pdf` and `POST /v1/templates`',
      mib(LIMITS.pdfBodyBytes),
      '413 `request_too_large`',
    ],
    ['Request body, `from_html` and `from_docx`', mib(LIMITS.htmlBodyBytes), '413 `request_too_large`'],
    [
      '`{{…}}` tags in one HTML or DOCX document',
      String(LIMITS.tagsPerDocument),
      '422 `invalid_template_tag`',
    ],
    [
      'Request body content type',
      '`application/json`, UTF-8',
      '415 `unsupported_content_type`; 400 `invalid_json`',
    ],
    ['JSON nesting', `${LIMITS.jsonDepth} levels`, '422 `invalid_request`'],
    ['Strings', 'no U+0000, no lone UTF-16 surrogate', '422 `invalid_request`'],
    ['Numbers', 'finite (`1e309` is refused, not stored as null)', '422 `invalid_request`'],
    ['Object keys', 'any but `__proto__`', '422 `invalid_request`'],
    ['Decoded PDF', mib(LIMITS.pdfBytes), '422 `invalid_pdf` / `invalid_pdf_url`'],
    ['Pages per PDF', String(LIMITS.pdfPages), '422 `invalid_pdf`'],
    ['Page size', 'every MediaBox and CropBox has a width and a height', '422 `invalid_pdf`'],
    [
      'DOCX (`from_docx`)',
      `${LIMITS.docxBase64Chars / 1024 / 1024} MiB of base64; a ZIP of at most ${LIMITS.docxEntries} entries and ${LIMITS.docxUncompressedBytes / 1024 / 1024} MiB uncompressed, each entry over ${LIMITS.docxRatioFloorBytes / 1024} KiB compressed at most ${LIMITS.docxRatio}:1; no ZIP64, encryption or methods but stored and deflate`,
      '422 `invalid_docx`',
    ],
    [
      'DOCX conversion',
      `${LIMITS.docxConvertMs / 1000} s; at most ${LIMITS.docxHtmlBytes / 1024 / 1024} MiB of HTML`,
      '500 `docx_convert_failed`; 422 `invalid_docx` for the HTML size',
    ],
    ['PDF URL length', `${LIMITS.urlLength} characters`, '422 `invalid_pdf_url`'],
    [
      'PDF URL fetch',
      `${LIMITS.pdfUrlConnectMs / 1000} s to connect, ${LIMITS.pdfUrlTotalMs / 1000} s in all, ${LIMITS.pdfUrlRedirects} redirects`,
      '422 `invalid_pdf_url`',
    ],
    ['Webhook URL length', `${LIMITS.urlLength} characters`, '422 `invalid_request`'],
    [
      'Webhook endpoints, not deleted, per account and environment',
      String(LIMITS.webhookEndpoints),
      '422 `webhook_endpoint_limit_reached`',
    ],
    [
      'One webhook attempt',
      `${LIMITS.webhookTotalMs / 1000} s in all, no redirect followed, the first ${LIMITS.webhookResponseBytes / 1024} KB of the answer kept`,
      'a failed attempt (retried on schedule)',
    ],
    ['Pages of a rendered HTML or DOCX document', String(LIMITS.htmlPages), '422 `invalid_request`'],
    ['Elements nested in one another, HTML or DOCX', String(LIMITS.htmlDepth), '422 `invalid_request`'],
    [
      'Elements of one HTML or DOCX document, once parsed',
      String(LIMITS.htmlElements),
      '422 `invalid_request`',
    ],
    [
      'HTML rendering',
      `${LIMITS.htmlRenderMs / 1000} s per document; ${LIMITS.htmlRenders} at once per process and ${LIMITS.htmlRenderQueue} waiting (each at most as long again), more refused`,
      '500 `html_render_failed`',
    ],
    [
      "Request body, a signer's `progress`; what one signer's saved progress keeps",
      `${mib(LIMITS.progressBodyBytes)}; ${mib(LIMITS.progressBytes)}, each image counted once`,
      '413 `request_too_large`; 413 `progress_too_large`',
    ],
    [
      "A signer's document as it stands (`current_pdf_url`)",
      `${LIMITS.currentPdfMs / 1000} s to make; ${LIMITS.currentPdfQueue} made or waiting at once per process, more refused`,
      '500 `current_pdf_failed`; 503 `current_pdf_busy`',
    ],
    [
      "Requests per client address to the signer's routes (`/s/…`, `/embed/…`, the page's assets) and `/files/…`",
      '`RATE_LIMIT_SIGNER` a minute (default 300; behind a proxy, see `TRUST_PROXY`)',
      '429 `rate_limit_exceeded` with `Retry-After`',
    ],
    [
      '`date` field values (signing, prefilled)',
      `${LIMITS.fieldDateMin} to ${LIMITS.fieldDateMax}`,
      '422 `invalid_field_value` (signing); 422 `invalid_request` (creation)',
    ],
    [
      'HTML rendering, shared between accounts',
      `one account: at most ${LIMITS.htmlRenders} renders at once and ${LIMITS.htmlRenderQueuePerAccount} waiting; ${LIMITS.htmlRenderReserve} more slot kept for the other accounts (${LIMITS.htmlRenders + LIMITS.htmlRenderReserve} at once per process)`,
      "429 `rate_limit_exceeded` with `Retry-After` (the account's own limit); 500 `html_render_failed` with `Retry-After` when the whole queue is full",
    ],
    [
      'Time-stamp request to `TSA_URL` (issue #21), per seal',
      `${LIMITS.tsaTimeoutMs / 1000} s in all, an answer of at most ${LIMITS.tsaResponseBytes / 1024} KiB`,
      'the finalization fails and is retried; never sealed without the time-stamp',
    ],
    [
      '`limit` and other integer query parameters',
      'plain decimal digits (`5`, not `5.0`, `1e1` or `+5`)',
      '422',
    ],
  ]
  return [
    '| limit | value | refused with |',
    '|---|---|---|',
    ...rows.map((cells) => `| ${cells.join(' | ')} |`),
  ].join('\n')
}
