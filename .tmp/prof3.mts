import { performance } from 'node:perf_hooks'
import { hundredPages } from '/work/main/test/fixtures/pdfs.ts'
import { buildFinalDocument } from '/work/main/src/pdf/final-pdf.ts'
const pdf = await hundredPages(3_300_000)
const stamps = [0,1,2].map(i => ({ document: 0, page: 1, area: { x: 0.1, y: 0.1 + i*0.2, w: 0.5, h: 0.05 }, value: { kind: 'text' as const, text: 'Jan Kowalski Łódź' } }))
for (let i = 0; i < 8; i++) {
  const c = process.cpuUsage(); const t = performance.now()
  const d = await buildFinalDocument({ documents: [pdf], stamps, submissionId: 'sub_4f9XqK2mR8sT1vW3yZ5bC7dE' })
  const t2 = performance.now()
  d.doc.saveToBuffer('incremental')
  console.log("build", (t2 - t).toFixed(1), "save", (performance.now() - t2).toFixed(1), "cpu", ((process.cpuUsage(c).user + process.cpuUsage(c).system)/1000).toFixed(1))
  d.doc.destroy()
}
