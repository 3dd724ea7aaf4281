import { hundredPages } from '/work/main/test/fixtures/pdfs.ts'
import { drawOverlay } from '/work/main/src/pdf/overlay.ts'
import { openPdf, rawPage } from '/work/main/src/pdf/mupdf-open.ts'
import { sesFooter } from '/work/main/src/pdf/footer.ts'
const pdf = await hundredPages(3_300_000)
const stamps = [0,1,2].map(i => ({ page: 1, area: { x: 0.1, y: 0.1 + i*0.2, w: 0.5, h: 0.05 }, value: { kind: 'text' as const, text: 'Jan Kowalski Łódź' } }))
const { doc } = openPdf(pdf)
const pages = Array.from({ length: doc.countPages() }, (_, i) => rawPage(doc.findPage(i)))
for (let i = 0; i < 5; i++) await drawOverlay({ pages, stamps, footer: sesFooter('sub_4f9XqK2mR8sT1vW3yZ5bC7dE') })
const { Session } = await import('node:inspector/promises')
const s = new Session(); s.connect(); await s.post('Profiler.enable'); await s.post('Profiler.start')
const c = process.cpuUsage()
for (let i = 0; i < 20; i++) await drawOverlay({ pages, stamps, footer: sesFooter('sub_4f9XqK2mR8sT1vW3yZ5bC7dE') })
const u = process.cpuUsage(c); console.log('cpu per overlay', ((u.user+u.system)/20000).toFixed(1))
const { profile: p } = await s.post('Profiler.stop')
const idx=new Map(p.nodes.map((n)=>[n.id,n])); const counts=new Map(); p.samples.forEach((x,i)=>counts.set(x,(counts.get(x)||0)+(p.timeDeltas[i]||0)))
const self=new Map(); for(const [id,t] of counts){const n=idx.get(id);const k=n.callFrame.functionName+' '+n.callFrame.url.split('/').slice(-2).join('/')+':'+n.callFrame.lineNumber;self.set(k,(self.get(k)||0)+t)}
console.log([...self].sort((a,b)=>b[1]-a[1]).slice(0,25).map(([k,t])=>(t/1000).toFixed(0)+'ms '+k).join('\n'))
