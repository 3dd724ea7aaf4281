import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { a4 } from '/work/main/test/fixtures/pdfs.ts'
import { sealPdf } from '/work/main/src/pdf/seal-pades.ts'
import { loadSigningCertificate } from '/work/main/src/pdf/signing-certificate.ts'
const identity = await loadSigningCertificate({ dataDir: mkdtempSync(join(tmpdir(), 'x')) })
const pdf = await a4()
for (let i = 0; i < 60; i++) await sealPdf(pdf, identity, { signedAt: new Date() })
