import { performance } from 'node:perf_hooks'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { a4, hundredPages } from '/work/main/test/fixtures/pdfs.ts'
import { sealPdf } from '/work/main/src/pdf/seal-pades.ts'
import { openPdf } from '/work/main/src/pdf/mupdf-open.ts'
import { loadSigningCertificate } from '/work/main/src/pdf/signing-certificate.ts'
const identity = await loadSigningCertificate({ dataDir: mkdtempSync(join(tmpdir(), 'x')) })
for (const [label, pdf] of [['a4', await a4()], ['100', await hundredPages()]] as const) {
  for (let i = 0; i < 4; i++) {
    let t = performance.now()
    const { doc } = openPdf(pdf)
    const open = performance.now() - t; t = performance.now()
    const buf = doc.saveToBuffer('incremental').asUint8Array()
    const save = performance.now() - t; t = performance.now()
    await sealPdf(pdf, identity, { signedAt: new Date() })
    const seal = performance.now() - t
    console.log(label, pdf.length, { open: open.toFixed(1), save: save.toFixed(1), seal: seal.toFixed(1) })
  }
}
