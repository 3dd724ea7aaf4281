import { writeFileSync } from 'node:fs'
import { hundredPages, a4 } from '/work/main/test/fixtures/pdfs.ts'
writeFileSync('/tmp/h100.pdf', await hundredPages(3_300_000)); writeFileSync('/tmp/a4.pdf', await a4())
