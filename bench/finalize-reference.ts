// The floor of finalization rows: bare pdf-lib doing the same stamping as Paraph (three
// PNG signatures and three text values drawn on page 1, the one-line footer on every page, one
// save written in one go as Paraph's finalizer does) and a bare signature of the saved bytes with
// Node's crypto (RSA-2048, SHA-256) standing in for the CMS of the PAdES seal. Timed in this
// process, on the same PDF and images Paraph is sent, in the same run. A standard font (nothing to
// embed or shape), no audit trail, no child process, no storage, no database: no finalization can
// be cheaper on this machine.
import { generateKeyPairSync, type KeyObject, sign } from 'node:crypto'
import { performance } from 'node:perf_hooks'
import * as mupdf from 'mupdf'
import { PDFDocument, StandardFonts } from 'pdf-lib'
import { SES_STATEMENT } from '../src/pdf/final/footer.ts'
import { median } from './stats.ts'

async function stampAndSign(pdf: Uint8Array, png: Uint8Array, texts: string[], key: KeyObject) {
  const started = performance.now()
  const doc = await PDFDocument.load(pdf)
  const page = doc.getPage(0)
  const font = await doc.embedFont(StandardFonts.Helvetica)
  const { height } = page.getSize()
  for (const [i, text] of texts.entries()) {
    const image = await doc.embedPng(png)
    const y = height * (0.84 - 0.2 * i)
    page.drawImage(image, { x: 60, y, width: 180, height: 50 })
    // Helvetica has no Ł or ż: the floor draws the text's WinAnsi-safe part, same length.
    page.drawText(text.replace(/[^\x20-\x7e]/g, '?'), { x: 300, y, size: 10, font })
  }
  const pages = doc.getPages()
  for (const [i, each] of pages.entries()) {
    const footer = `${SES_STATEMENT} · sub_4f9XqK2mR8sT1vW3yZ5bC7dE · page ${i + 1} of ${pages.length}`
    each.drawText(footer, { x: 24, y: 8, size: 7, font })
  }
  const bytes = await doc.save({ objectsPerTick: Number.POSITIVE_INFINITY })
  const signature = sign('sha256', bytes, key)
  const elapsed = performance.now() - started
  if (signature.length !== 256) throw new Error('no RSA-2048 signature')
  return elapsed
}

type Pass = (pdf: Uint8Array, png: Uint8Array, texts: string[], key: KeyObject) => Promise<number>

/** Median of `runs` timed passes, after two untimed ones (JIT), with a fresh RSA-2048 key. */
async function medianOf(pass: Pass, pdf: Uint8Array, png: Uint8Array, texts: string[], runs: number) {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  await pass(pdf, png, texts, privateKey)
  await pass(pdf, png, texts, privateKey)
  const times: number[] = []
  for (let i = 0; i < runs; i++) times.push(await pass(pdf, png, texts, privateKey))
  return median(times)
}

/** Median of `runs` timed pdf-lib stamp-and-sign passes. */
export function stampAndSignMs(
  pdf: Uint8Array,
  png: Uint8Array,
  texts: string[],
  runs = 11,
): Promise<number> {
  return medianOf(stampAndSign, pdf, png, texts, runs)
}

/**
 * The same stamping with MuPDF (the engine since issue #21) saved as an incremental update, and the
 * same bare RSA signature: the least work the chosen engine needs, printed beside the pdf-lib floor.
 */
async function stampAndSignIncremental(pdf: Uint8Array, png: Uint8Array, texts: string[], key: KeyObject) {
  const started = performance.now()
  const doc = new mupdf.PDFDocument(pdf)
  const font = doc.addSimpleFont(new mupdf.Font('Helvetica'))
  const image = doc.addImage(new mupdf.Image(png))
  const count = doc.countPages()
  for (let i = 0; i < count; i++) {
    const page = doc.findPage(i)
    const resources = doc.newDictionary()
    resources.put('Font', { F: font })
    let ops = `q BT /F 7 Tf 24 8 Td (${SES_STATEMENT.replace(/[^\x20-\x7e]/g, '?')} page ${i + 1} of ${count}) Tj ET Q\n`
    if (i === 0) {
      resources.put('XObject', { I: image })
      for (const [n, text] of texts.entries()) {
        const y = 842 * (0.84 - 0.2 * n)
        ops += `q 180 0 0 50 60 ${y} cm /I Do Q BT /F 10 Tf 300 ${y} Td (${text.replace(/[^\x20-\x7e]/g, '?')}) Tj ET\n`
      }
    }
    const form = doc.addStream(ops, {
      Type: 'XObject',
      Subtype: 'Form',
      BBox: [0, 0, 595, 842],
      Resources: resources,
    })
    const own = doc.newDictionary()
    own.put('XObject', { P: form })
    page.put('Resources', own)
    const contents = doc.newArray()
    contents.push(page.get('Contents'))
    contents.push(doc.addStream('/P Do', {}))
    page.put('Contents', contents)
  }
  const bytes = doc.saveToBuffer('incremental').asUint8Array()
  const signature = sign('sha256', bytes, key)
  doc.destroy()
  const elapsed = performance.now() - started
  if (signature.length !== 256) throw new Error('no RSA-2048 signature')
  return elapsed
}

/** Median of `runs` timed incremental stamp-and-sign passes with MuPDF. */
export function stampAndSignIncrementalMs(
  pdf: Uint8Array,
  png: Uint8Array,
  texts: string[],
  runs = 11,
): Promise<number> {
  return medianOf(stampAndSignIncremental, pdf, png, texts, runs)
}
