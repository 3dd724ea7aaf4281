import { hundredPages } from '/work/main/test/fixtures/pdfs.ts'
import { drawOverlay } from '/work/main/src/pdf/overlay.ts'
import { graftOverlay } from '/work/main/src/pdf/graft-overlay.ts'
import { openPdf, rawPage } from '/work/main/src/pdf/mupdf-open.ts'
import { sesFooter } from '/work/main/src/pdf/footer.ts'
const pdf = await hundredPages(3_300_000)
const stamps = [0,1,2].map(i => ({ page: 1, area: { x: 0.1, y: 0.1 + i*0.2, w: 0.5, h: 0.05 }, value: { kind: 'text' as const, text: 'Jan Kowalski Łódź' } }))
const cpu = (c: NodeJS.CpuUsage) => { const u = process.cpuUsage(c); return ((u.user + u.system) / 1000).toFixed(1) }
for (let i = 0; i < 8; i++) {
  let c = process.cpuUsage()
  const { doc } = openPdf(pdf)
  const pages = Array.from({ length: doc.countPages() }, (_, i) => rawPage(doc.findPage(i)))
  const open = cpu(c); c = process.cpuUsage()
  const overlay = await drawOverlay({ pages, stamps, footer: sesFooter('sub_4f9XqK2mR8sT1vW3yZ5bC7dE') })
  const draw = cpu(c); c = process.cpuUsage()
  graftOverlay(doc, overlay, 'content')
  const graft = cpu(c); c = process.cpuUsage()
  const out = doc.saveToBuffer('incremental').asUint8Array()
  const save = cpu(c); c = process.cpuUsage()
  const out2 = doc.saveToBuffer('incremental,compress').asUint8Array()
  console.log({ open, draw, graft, save, compressSave: cpu(c), overlay: overlay.length, appended: out.length - pdf.length, appendedCompressed: out2.length - pdf.length })
  doc.destroy()
}
