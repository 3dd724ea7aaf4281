import { readZipDirectory, gateDocxZip } from './src/render/zip-gate.ts'
import { storedZip } from './src/render/zip-store.ts'
import { ApiError } from './src/errors.ts'
import { deflateRawSync } from 'node:zlib'
const files = new Map<string, Buffer>([['[Content_Types].xml', Buffer.from('<x/>')], ['word/document.xml', Buffer.from('<w:document>hello</w:document>'.repeat(10))], ['', Buffer.alloc(0)], ['../evil', Buffer.from('x')]])
const base = storedZip(files)
console.log('base ok', readZipDirectory(base).map(e => e.name))
let other = 0, api = 0, ok = 0
const t0 = performance.now()
let seed = 1; const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648
for (let i = 0; i < 200000; i++) {
  const b = Buffer.from(base)
  const k = 1 + Math.floor(rnd() * 4)
  for (let j = 0; j < k; j++) b[Math.floor(rnd() * b.length)] = Math.floor(rnd() * 256)
  const cut = rnd() < 0.2 ? b.subarray(0, Math.floor(rnd() * b.length)) : b
  try { gateDocxZip(cut); ok++ } catch (e) { if (e instanceof ApiError) api++; else { other++; if (other < 5) console.log('NON-API', (e as Error).message) } }
}
console.log({ ok, api, other, ms: (performance.now() - t0).toFixed(0) })
