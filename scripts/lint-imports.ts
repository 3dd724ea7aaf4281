// `npm run lint:imports`, and the first step of `npm test`: the import rules of docs/architecture.md.
// dependency-cruiser checks the rules between modules (.dependency-cruiser.cjs) and prints its own
// report; from the same cruise this script adds the two rules that follow run-time imports only,
// which dependency-cruiser cannot state:
// - no cycle between folders. Its `circular` sees cycles between modules only (accounts/a →
//   console/b, console/c → accounts/d is no module cycle), and its folder-scope rules count
//   `import type` and test files, and name a dependency by its deepest folder (render/ → pdf/seal/
//   never closes a cycle through pdf/). Here a folder is a top-level folder of src/ (a file at the
//   top, config.ts, is its own unit; the two browser programs are their own);
// - no Node built-in reachable from browser code (through the lib/ modules it imports). Its
//   `reachable` would also walk the `import type` of server schemas, which the bundler erases.
// Only run-time imports of production code count: `import type` is erased, tests import anything.
import { resolve } from 'node:path'
import type { ICruiseResult } from 'dependency-cruiser'
import { cruise, format } from 'dependency-cruiser'
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options'
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config'

const root = resolve(import.meta.dirname, '..')
const FOLDER = /^src\/(signing-page\/page|console\/app|[^/]+)/
const BROWSER = /^src\/(signing-page\/page|console\/app)\//
const TEST_CODE = /(^test\/|\.(test|contract)\.tsx?$|-kit\.ts$)/
const ERASED = new Set(['type-only', 'type-import'])

/** The folder unit of a module (`src/accounts`, `src/config.ts`), or undefined outside src/. */
export function folderOf(source: string): string | undefined {
  return FOLDER.exec(source)?.[0]
}

type Edges = Map<string, Map<string, string[]>>

/** Folder → folder → the imports that make the edge, from production code at run time. */
function folderEdges(result: ICruiseResult): Edges {
  const edges: Edges = new Map()
  for (const module of result.modules) {
    const from = folderOf(module.source)
    if (!from || TEST_CODE.test(module.source)) continue
    for (const dependency of module.dependencies) {
      const to = folderOf(dependency.resolved)
      if (!to || to === from || dependency.dependencyTypes.some((type) => ERASED.has(type))) continue
      const targets = edges.get(from) ?? new Map<string, string[]>()
      edges.set(from, targets)
      targets.set(to, [...(targets.get(to) ?? []), `${module.source} → ${dependency.resolved}`])
    }
  }
  return edges
}

/** The strongly connected components of more than one folder (Tarjan), each sorted. */
function cycles(edges: Edges): string[][] {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const found: string[][] = []
  const visit = (folder: string) => {
    index.set(folder, index.size)
    low.set(folder, index.get(folder) as number)
    stack.push(folder)
    for (const next of edges.get(folder)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next)
        low.set(folder, Math.min(low.get(folder) as number, low.get(next) as number))
      } else if (stack.includes(next)) {
        low.set(folder, Math.min(low.get(folder) as number, index.get(next) as number))
      }
    }
    if (low.get(folder) === index.get(folder)) {
      const component = stack.splice(stack.indexOf(folder))
      if (component.length > 1) found.push(component.sort())
    }
  }
  for (const folder of [...edges.keys()].sort()) if (!index.has(folder)) visit(folder)
  return found.sort((a, b) => a.join().localeCompare(b.join()))
}

/** One error per set of folders that import each other, with the imports that close it. */
function describeCycles(edges: Edges): string[] {
  return cycles(edges).map((component) => {
    const lines = [`  error no-folder-cycle: ${component.join(' ⇄ ')}`]
    for (const from of component) {
      for (const [to, imports] of [...(edges.get(from) ?? [])].sort()) {
        if (!component.includes(to)) continue
        const more = imports.length > 1 ? ` (+${imports.length - 1} more)` : ''
        lines.push(`      ${from} → ${to}: ${imports[0]}${more}`)
      }
    }
    return lines.join('\n')
  })
}

/** Run-time imports of each module (erased ones left out). */
function runTimeImports(result: ICruiseResult): Map<string, { to: string; core: boolean }[]> {
  return new Map(
    result.modules.map((module) => [
      module.source,
      module.dependencies
        .filter((dependency) => !dependency.dependencyTypes.some((type) => ERASED.has(type)))
        .map((dependency) => ({ to: dependency.resolved, core: dependency.coreModule })),
    ]),
  )
}

/** One error per browser module from which a Node built-in is reachable, with the path to it. */
function describeNodeInBrowser(result: ICruiseResult): string[] {
  const imports = runTimeImports(result)
  const found: string[] = []
  for (const start of [...imports.keys()].filter(
    (source) => BROWSER.test(source) && !TEST_CODE.test(source),
  )) {
    const via = new Map<string, string>([[start, '']])
    const queue = [start]
    let path: string[] | undefined
    while (queue.length && !path) {
      const current = queue.shift() as string
      for (const { to, core } of imports.get(current) ?? []) {
        if (core) {
          path = [to]
          for (let at = current; at; at = via.get(at) as string) path.unshift(at)
          break
        }
        if (!via.has(to) && to.startsWith('src/')) {
          via.set(to, current)
          queue.push(to)
        }
      }
    }
    if (path) found.push(`  error browser-reaches-no-node: ${path.join(' → ')}`)
  }
  return found
}

export type ImportReport = { output: string; errors: number; result: ICruiseResult }

/**
 * Cruises `paths` (relative to `baseDir`, the project root by default) with the project's rules;
 * `errors` counts the broken module rules and the folder cycles.
 */
export async function checkImports(paths: string[], baseDir = root): Promise<ImportReport> {
  const options = await extractDepcruiseOptions(resolve(root, '.dependency-cruiser.cjs'))
  const tsConfig = extractTSConfig(resolve(root, 'tsconfig.json'))
  const cruised = await cruise(paths, { ...options, baseDir, outputType: 'json' }, {}, { tsConfig })
  const result = JSON.parse(cruised.output as string) as ICruiseResult
  const modules = await format(result, { outputType: 'err' })
  const runTime = [...describeCycles(folderEdges(result)), ...describeNodeInBrowser(result)]
  const output = [
    String(modules.output).trimEnd(),
    ...runTime,
    runTime.length ? `\nx ${runTime.length} run-time import violations (see docs/architecture.md)` : '',
  ]
    .filter(Boolean)
    .join('\n')
  return { output, errors: result.summary.error + runTime.length, result }
}

if (import.meta.filename === process.argv[1]) {
  const paths = process.argv.slice(2)
  const { output, errors } = await checkImports(paths.length ? paths : ['src', 'test', 'bench', 'scripts'])
  console.log(output)
  process.exitCode = errors ? 1 : 0
}
