import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { parsePdfinfoOutput } from './pdfinfo-output.ts'

// Captured from `pdfinfo -box -f 1 -l 2000` (poppler 22.12) on PDFs built by test/fixtures.
const info = (body: string) =>
  `Creator:         pdf-lib (https://github.com/Hopding/pdf-lib)
Producer:        pdf-lib (https://github.com/Hopding/pdf-lib)
CreationDate:    Sun Nov 22 03:48:33 2026 UTC
Custom Metadata: no
Metadata Stream: no
Tagged:          no
UserProperties:  no
Suspects:        no
Form:            none
JavaScript:      no
${body}`

const threePages = info(`Pages:           3
Encrypted:       no
Page    1 size:  595.28 x 841.89 pts (A4)
Page    1 rot:   0
Page    2 size:  595.28 x 841.89 pts (A4)
Page    2 rot:   90
Page    3 size:  495 x 742 pts
Page    3 rot:   0
Page    1 MediaBox:      0.00     0.00   595.28   841.89
Page    1 CropBox:       0.00     0.00   595.28   841.89
Page    1 BleedBox:      0.00     0.00   595.28   841.89
Page    1 TrimBox:       0.00     0.00   595.28   841.89
Page    1 ArtBox:        0.00     0.00   595.28   841.89
Page    2 MediaBox:      0.00     0.00   595.28   841.89
Page    2 CropBox:       0.00     0.00   595.28   841.89
Page    3 MediaBox:      0.00     0.00   595.28   841.89
Page    3 CropBox:      50.00    50.00   545.00   792.00
Page    3 BleedBox:     50.00    50.00   545.00   792.00
File size:       622 bytes
Optimized:       no
PDF version:     1.7
`)

describe('parsePdfinfoOutput', () => {
  it('reads the page count, version and each page’s boxes and rotation', () => {
    const report = parsePdfinfoOutput(threePages)!
    assert.equal(report.pageCount, 3)
    assert.equal(report.encrypted, false)
    assert.equal(report.version, '1.7')
    assert.deepEqual(report.pages.get(1), {
      rotate: 0,
      mediaBox: [0, 0, 595.28, 841.89],
      cropBox: [0, 0, 595.28, 841.89],
    })
    assert.equal(report.pages.get(2)?.rotate, 90)
    assert.deepEqual(report.pages.get(3)?.cropBox, [50, 50, 545, 792])
  })

  it('reports encryption whatever follows "Encrypted:", except a plain "no"', () => {
    const owner = threePages.replace(
      /Encrypted:.*/,
      'Encrypted:       yes (print:yes copy:yes change:yes addNotes:yes algorithm:AES-256)',
    )
    assert.equal(parsePdfinfoOutput(owner)!.encrypted, true)
    assert.equal(parsePdfinfoOutput(threePages.replace(/Encrypted:.*/, 'Encrypted: maybe'))!.encrypted, true)
  })

  it('ignores lines forged in the Title before the real "Pages:" line', () => {
    const forged = `Title:           x
Pages:           7
Encrypted:       yes
Page    1 MediaBox:      0.00     0.00   10.00   10.00
Page    1 rot:   90
Author:          a\rPages: 9
${info(`Pages:           1
Encrypted:       no
Page    1 size:  595.28 x 841.89 pts (A4)
Page    1 rot:   0
Page    1 MediaBox:      0.00     0.00   595.28   841.89
Page    1 CropBox:       0.00     0.00   595.28   841.89
PDF version:     1.7
`)}`
    const report = parsePdfinfoOutput(forged)!
    assert.equal(report.pageCount, 1)
    assert.equal(report.encrypted, false)
    assert.deepEqual(report.pages.get(1), {
      rotate: 0,
      mediaBox: [0, 0, 595.28, 841.89],
      cropBox: [0, 0, 595.28, 841.89],
    })
  })

  it('leaves a page poppler could not read without a MediaBox (a cyclic page tree)', () => {
    const cyclic = info(`Pages:           2
Encrypted:       no
Page    1 size:  595 x 842 pts (A4)
Page    1 rot:   0
Page    2 size:  0 x 0 pts
Page    2 rot:   0
Page    1 MediaBox:      0.00     0.00   595.00   842.00
Page    1 CropBox:       0.00     0.00   595.00   842.00
PDF version:     1.7
`)
    const report = parsePdfinfoOutput(cyclic)!
    assert.equal(report.pageCount, 2)
    assert.deepEqual(report.pages.get(1)?.mediaBox, [0, 0, 595, 842])
    assert.equal(report.pages.get(2)?.mediaBox, undefined)
  })

  it('skips malformed box and rotation values instead of reading NaN', () => {
    const report = parsePdfinfoOutput(`Pages: 1
Encrypted: no
Page    1 rot:   ninety
Page    1 MediaBox:      0.00     0.00   nan   841.89
Page    1 CropBox:       0.00     0.00   595.28
`)!
    assert.deepEqual(report.pages.get(1), {})
  })

  it('handles CRLF line ends and negative coordinates', () => {
    const report = parsePdfinfoOutput('Pages: 1\r\nPage 1 MediaBox: -10.50 -20 601.5 772\r\n')!
    assert.deepEqual(report.pages.get(1)?.mediaBox, [-10.5, -20, 601.5, 772])
  })

  it('is undefined when no page count was printed', () => {
    assert.equal(parsePdfinfoOutput(''), undefined)
    assert.equal(parsePdfinfoOutput("Syntax Error: Couldn't read xref table\n"), undefined)
    assert.equal(parsePdfinfoOutput('Pages: many\n'), undefined)
  })
})
