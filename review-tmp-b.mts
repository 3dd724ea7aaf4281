import { markTags } from './src/render/html-tags.ts'
const P = 'https://fields.paraph.invalid/x/'
const k = Number(process.argv[2]), n = Number(process.argv[3])
let open = ''
for (let i = 0; i < k; i++) open += `<b id=${i}>`
const html = '<div>' + open + '</div>' + '<p>x'.repeat(n) + '{{Sig}}'
console.log('input chars', html.length)
const t0 = performance.now()
try { const r = markTags(html, P, { path: 'html', lines: true }); console.log('ok tags', r.tags.length, 'out chars', r.html.length) }
catch (e: any) { console.log(e.constructor.name, String(e.message).slice(0, 150)) }
console.log((performance.now() - t0).toFixed(0), 'ms', 'rss MB', (process.memoryUsage().rss/1e6).toFixed(0))
