// The import rules bite: a tiny tree written for the purpose, cruised with the project's own rules
// (.dependency-cruiser.cjs through scripts/lint-imports.ts), has each wrong-way import reported
// under its rule and each allowed one left alone. Only the tree is cruised: a few seconds.
import assert from 'node:assert/strict'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { checkImports, type ImportReport } from '../scripts/lint-imports.ts'

// Each file imports the paths listed; `type:` marks an `import type`.
const TREE: Record<string, string[]> = {
  'src/lib/ids.ts': [],
  'src/lib/hash.ts': ['node:crypto'],
  'src/errors.ts': ['src/lib/ids.ts'],
  'src/deps.ts': ['src/accounts/account-store.ts'],
  // A leaf importing a capability, and http/ (even as a type).
  'src/db/keyset.ts': ['type:src/http/pagination.ts'],
  'src/jobs/queue.ts': ['src/accounts/account-store.ts'],
  // http/ naming a capability (a type counts), and the tolerated type of Deps.
  'src/http/pagination.ts': ['src/errors.ts'],
  'src/http/auth.ts': ['type:src/console/console-auth.ts', 'type:src/deps.ts'],
  'src/http/define-route.ts': ['src/deps.ts'],
  // render/ borrowing the API's error class.
  'src/render/docx-to-html.ts': ['src/errors.ts', 'src/lib/ids.ts'],
  // A folder cycle with no module cycle: accounts/a → console/b, console/c → accounts/d.
  'src/accounts/account-store.ts': [],
  'src/accounts/create-account.ts': ['src/console/member-store.ts'],
  'src/console/member-store.ts': [],
  'src/console/console-auth.ts': ['src/accounts/account-store.ts'],
  // Not a cycle: one way is `import type`, erased at run time.
  'src/templates/template-store.ts': ['src/documents/intake.ts'],
  'src/documents/intake.ts': ['type:src/templates/template-store.ts'],
  // Browser code: its own folder, lib/ and types of the server are fine; a server module is not, nor
  // a lib/ module that imports Node.
  'src/signing-page/page/main.ts': [
    'src/signing-page/page/texts.ts',
    'src/lib/ids.ts',
    'type:src/submissions/submission-store.ts',
    'src/mail/texts.ts',
    'src/lib/hash.ts',
  ],
  'src/signing-page/page/texts.ts': [],
  'src/signing-page/page/view.ts': [],
  'src/console/app/api.ts': ['type:src/submissions/submission-store.ts'],
  'src/mail/texts.ts': [],
  // The server may import a module shared with the browser (the page's texts), not the rest of it.
  'src/submissions/submission-store.ts': [
    'src/signing-page/page/texts.ts',
    'src/signing-page/page/view.ts',
    'node:fs',
  ],
  // Production code importing a test; a test may import anything.
  'src/usage/pricing.ts': ['src/usage/pricing.test.ts'],
  'src/usage/pricing.test.ts': ['src/console/member-store.ts', 'src/http/auth.ts'],
}

const relative = (from: string, to: string) => {
  const up = dirname(from)
    .split('/')
    .map(() => '..')
  return `./${up.join('/')}/${to}`.replace('/./', '/')
}

function source(file: string, imports: string[]): string {
  const lines = imports.map((target, index) => {
    if (target.startsWith('node:')) return `import * as v${index} from '${target}'`
    const typeOnly = target.startsWith('type:')
    const path = relative(file, target.replace(/^type:/, ''))
    return typeOnly
      ? `import type { T as T${index} } from '${path}'`
      : `import { v as v${index} } from '${path}'`
  })
  const uses = imports.map((target, index) => (target.startsWith('type:') ? `T${index}` : `typeof v${index}`))
  return [
    ...lines,
    'export type T = number',
    'export const v = 1',
    `export type Uses = [${uses.join(', ')}]`,
    '',
  ].join('\n')
}

describe('the import rules (.dependency-cruiser.cjs) on a small tree', () => {
  let dir: string
  let report: ImportReport
  const violations = () =>
    report.result.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`).sort()

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'paraph-import-rules-'))
    for (const [file, imports] of Object.entries(TREE)) {
      await mkdir(join(dir, dirname(file)), { recursive: true })
      await writeFile(join(dir, file), source(file, imports))
    }
    report = await checkImports(['src'], dir)
  })
  after(() => rm(dir, { recursive: true, force: true }))

  it('reports each wrong-way import under its rule, and nothing else', () => {
    assert.deepEqual(
      violations(),
      [
        'browser-stays-in-its-program: src/signing-page/page/main.ts → src/mail/texts.ts',
        'http-knows-no-capability: src/http/auth.ts → src/console/console-auth.ts',
        'leaf-not-to-capability-or-http: src/db/keyset.ts → src/http/pagination.ts',
        'leaf-not-to-capability-or-http: src/jobs/queue.ts → src/accounts/account-store.ts',
        'no-production-to-test: src/usage/pricing.ts → src/usage/pricing.test.ts',
        'pdf-render-not-to-errors: src/render/docx-to-html.ts → src/errors.ts',
        'server-not-to-browser: src/submissions/submission-store.ts → src/signing-page/page/view.ts',
        // http/ may name Deps as a type, never import deps.ts for a value.
        'deps-type-only: src/http/define-route.ts → src/deps.ts',
      ].sort(),
    )
  })

  it('reports the folder cycle that no module cycle shows, and not the one closed by a type', () => {
    assert.match(report.output, /error no-folder-cycle: src\/accounts ⇄ src\/console\n/)
    assert.match(
      report.output,
      /src\/accounts → src\/console: src\/accounts\/create-account\.ts → src\/console\/member-store\.ts/,
    )
    assert.doesNotMatch(report.output, /src\/documents ⇄|⇄ src\/templates/)
  })

  it('reports a Node built-in reached from browser code through lib/, not through a type', () => {
    assert.match(
      report.output,
      /error browser-reaches-no-node: src\/signing-page\/page\/main\.ts → src\/lib\/hash\.ts → crypto\n/,
    )
    assert.equal(report.output.match(/browser-reaches-no-node/g)?.length, 1)
    assert.equal(report.errors, violations().length + 2)
  })
})
