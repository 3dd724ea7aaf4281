import { readFileSync } from 'node:fs'
import { orphanWidgets, formFields } from '/work/main/test/pdf-checks.ts'
for (const f of process.argv.slice(2)) { const b = readFileSync(f); console.log(f.split('/').pop(), 'orphans', await orphanWidgets(b), 'fields', (await formFields(b)).length) }
