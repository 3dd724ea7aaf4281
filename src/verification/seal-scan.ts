// What kind of file a PDF is, by a byte scan alone (docs/api.md#verification): no PDF library reads
// it, so a hostile file costs one linear pass, and a 100-page final answers in milliseconds.
// Ours: a signature's /Contents (the CMS, hex) holds the DER of this instance's sealing
// certificate, which a CMS carries verbatim among its certificates.

export type SealScan = 'not_a_pdf' | 'not_sealed' | 'sealed_elsewhere' | 'sealed_here'

/** ISO 32000-1 §7.5.2: readers look for the header in the first 1024 bytes. */
const HEADER_WINDOW = 1024
const HEADER = Buffer.from('%PDF-')
const BYTE_RANGE = Buffer.from('/ByteRange')
const CONTENTS = Buffer.from('/Contents')
const LESS_THAN = 0x3c
const GREATER_THAN = 0x3e
/** ISO 32000-1 §7.2.2: the white-space characters. */
const WHITE_SPACE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20])

export function scanSeals(pdf: Buffer, certificate: Uint8Array): SealScan {
  if (pdf.subarray(0, HEADER_WINDOW).indexOf(HEADER) === -1) return 'not_a_pdf'
  if (pdf.indexOf(BYTE_RANGE) === -1) return 'not_sealed'
  for (const cms of hexContents(pdf)) {
    if (cms.indexOf(certificate) !== -1) return 'sealed_here'
  }
  return 'sealed_elsewhere'
}

/**
 * Every `/Contents <hex>` of the file, decoded. A page's /Contents is a reference or an array,
 * never a hex string, so only signatures' values are read. Each string is read once and the scan
 * moves past it: linear in the file, whatever the number or the size of the strings.
 */
function* hexContents(pdf: Buffer): Generator<Buffer> {
  let from = 0
  for (;;) {
    const at = pdf.indexOf(CONTENTS, from)
    if (at === -1) return
    let start = at + CONTENTS.length
    while (start < pdf.length && WHITE_SPACE.has(pdf[start]!)) start++
    from = start
    if (pdf[start] !== LESS_THAN || pdf[start + 1] === LESS_THAN) continue
    const end = pdf.indexOf(GREATER_THAN, start + 1)
    if (end === -1) return
    from = end + 1
    const hex = pdf.toString('latin1', start + 1, end)
    yield Buffer.from(/\s/.test(hex) ? hex.replace(/\s+/g, '') : hex, 'hex')
  }
}
