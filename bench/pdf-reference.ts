// The yardstick of creation rows: what pdf-lib alone takes to load a PDF and read every page's
// size, timed in this process on the same bytes Paraph is sent, in the same run.
import { performance } from 'node:perf_hooks'
import { PDFDocument } from 'pdf-lib'
import { median } from './stats.ts'

async function loadAndMeasure(bytes: Uint8Array): Promise<number> {
  const started = performance.now()
  const doc = await PDFDocument.load(bytes)
  let area = 0
  for (const page of doc.getPages()) {
    const { width, height } = page.getSize()
    area += width * height
  }
  const elapsed = performance.now() - started
  if (!(area > 0)) throw new Error('pdf-lib read no page size')
  return elapsed
}

/** Median of `runs` timed loads, after two untimed ones (JIT). */
export async function pdfLibLoadMs(bytes: Uint8Array, runs = 15): Promise<number> {
  await loadAndMeasure(bytes)
  await loadAndMeasure(bytes)
  const times: number[] = []
  for (let i = 0; i < runs; i++) times.push(await loadAndMeasure(bytes))
  return median(times)
}
