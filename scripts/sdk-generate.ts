// `npm run sdk:generate` (docs/sdks.md#regenerating): regenerates every SDK from docs/openapi.yaml,
// the committed snapshot of the served GET /openapi.yaml. The TypeScript SDK's files are written
// here; then each other SDK's own script, `sdk:generate:<language>` in package.json (the Python
// SDK's `sdk:generate:python`), is run if it exists — the hook a new SDK adds itself to.
import { spawnSync } from 'node:child_process'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { generateTypeScriptSdk } from '../sdks/typescript/scripts/generate.ts'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const started = performance.now()
const openapi = await readFile(join(root, 'docs/openapi.yaml'), 'utf8')
for (const file of await generateTypeScriptSdk(openapi)) {
  const path = join(root, 'sdks/typescript', file.path)
  await mkdir(dirname(path), { recursive: true })
  await writeFile(path, file.text)
  console.log(`wrote sdks/typescript/${file.path} (${file.text.length} bytes)`)
}
console.log(`TypeScript SDK generated in ${Math.round(performance.now() - started)} ms`)

const scripts = (
  JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
).scripts
for (const name of Object.keys(scripts)
  .filter((s) => s.startsWith('sdk:generate:'))
  .sort()) {
  console.log(`npm run ${name}`)
  const run = spawnSync('npm', ['run', '--silent', name], { cwd: root, stdio: 'inherit' })
  if (run.status !== 0) process.exit(run.status ?? 1)
}
