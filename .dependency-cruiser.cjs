// The import rules of docs/architecture.md, checked by `npm run lint:imports` and at the start of
// `npm test`. Layers, top to bottom: roots (cli/, app.ts, job-catalogue.ts, deps.ts) → capabilities
// → http/ → leaves. An import goes down or sideways, never up. Two rules that follow only run-time
// imports (no folder cycle; no Node built-in reachable from browser code) are checked by
// scripts/lint-imports.ts on the same cruise: dependency-cruiser's cycle and reachability rules
// see modules only, and follow `import type` too.
//
// Paths are folder prefixes, never file lists, so a file added to a folder is under its folder's
// rules. Test code (`*.test.ts`, `test/`, the test kits beside the code) may import anything;
// production code never imports test code.

const TEST_CODE = '(^test/|\\.(test|contract)\\.tsx?$|-kit\\.ts$)'
const ROOTS = '^src/(cli/|app\\.ts$|job-catalogue\\.ts$|deps\\.ts$)'
const CAPABILITIES =
  '^src/(accounts|templates|submissions|submitters|documents|events|webhooks|signing-page|console|usage|request-logs|backup|lifecycle|bulk-sends|privacy|verification|mcp)/'
const HTTP = '^src/http/'
const LEAVES =
  '^src/(lib/|errors\\.ts$|limits\\.ts$|config\\.ts$|db/|storage/|child-pool/|jobs/|metrics/|mail/|pdf/|render/)'
// The two browser programs (own tsconfig, DOM): bundled by path, never imported by the server.
const BROWSER = '^src/(signing-page/page|console/app)/'
// Words written once for both sides: the signing page's texts (the server puts its title, consent
// wording and e-mail code mail in the signer's language) and the mail variables the console's send
// form offers. Each is pure data with no import outside this list ('shared-stays-pure').
const SHARED_WITH_BROWSER = '^src/(signing-page/page/texts[-a-z]*|mail/messages/variables)\\.ts$'

// A rule's `from` for production code in src/ (test code may import anything).
const production = (path) => ({ path, pathNot: TEST_CODE })

module.exports = {
  forbidden: [
    {
      name: 'not-to-unresolvable',
      comment: 'Every import resolves to a file or an installed package.',
      severity: 'error',
      from: {},
      // scripts/pdf-engine-compare.mjs measures an engine installed with --no-save (see its header).
      to: { couldNotResolve: true, pathNot: '^@cantoo/pdf-lib$' },
    },
    {
      name: 'no-production-to-test',
      comment: 'Production code never imports test code (tests, test kits, test/).',
      severity: 'error',
      from: production('^src/'),
      to: { path: TEST_CODE },
    },
    {
      name: 'every-module-has-a-layer',
      comment:
        'A module in src/ outside every layer of docs/architecture.md: place its folder in a layer (here and in the map).',
      severity: 'error',
      from: {},
      to: { path: '^src/', pathNot: [ROOTS, CAPABILITIES, HTTP, LEAVES, TEST_CODE] },
    },

    // Roots: only roots import roots; the composition root's interface (Deps) may be imported as a type.
    {
      name: 'not-to-roots',
      comment: 'cli/, app.ts and job-catalogue.ts are imported by roots only.',
      severity: 'error',
      from: { path: '^src/', pathNot: [ROOTS, TEST_CODE] },
      to: { path: ROOTS, pathNot: '^src/deps\\.ts$' },
    },
    {
      name: 'deps-type-only',
      comment: 'Below the roots, deps.ts is imported only as `import type { Deps }` (handed to handlers).',
      severity: 'error',
      from: { path: `(${CAPABILITIES})|(${HTTP})`, pathNot: TEST_CODE },
      to: { path: '^src/deps\\.ts$', dependencyTypesNot: ['type-only'] },
    },

    // Capabilities.
    {
      name: 'lifecycle-stores-not-to-lifecycle',
      comment:
        'lifecycle/ writes the events/ journal, the usage/ ledger and deletes documents/ saved progress in its transaction: they never import it.',
      severity: 'error',
      from: production('^src/(events|usage|documents)/'),
      to: { path: '^src/lifecycle/' },
    },

    // http/: route plumbing, knows no capability (type-only imports count too).
    {
      name: 'http-knows-no-capability',
      comment: 'http/ imports only leaves: auth strategies and per-route headers are passed in or declared on the route.',
      severity: 'error',
      from: production(HTTP),
      to: { path: [CAPABILITIES, ROOTS], pathNot: '^src/deps\\.ts$' },
    },

    // Leaves.
    {
      name: 'leaf-not-to-capability-or-http',
      comment: 'Leaves import no capability, no http/ and no root (not even a type).',
      severity: 'error',
      from: production(LEAVES),
      to: { path: [CAPABILITIES, HTTP, ROOTS] },
    },
    {
      name: 'lib-imports-nothing-of-ours',
      comment: 'lib/ is the bottom: it imports no other folder of src/.',
      severity: 'error',
      from: production('^src/lib/'),
      to: { path: '^src/', pathNot: '^src/lib/' },
    },
    {
      name: 'errors-limits-import-only-lib',
      comment: 'errors.ts and limits.ts import only lib/.',
      severity: 'error',
      from: production('^src/(errors|limits)\\.ts$'),
      to: { path: '^src/', pathNot: '^src/lib/' },
    },
    {
      name: 'config-starts-nothing',
      comment:
        'config.ts imports lib/, limits.ts and pure parsers of other leaves, never the code that uses the config.',
      severity: 'error',
      from: production('^src/config\\.ts$'),
      to: { path: '^src/(errors\\.ts$|db/|jobs/|metrics/|child-pool/|pdf/|render/)' },
    },
    {
      name: 'stores-below-pdf-and-mail',
      comment:
        'db/, storage/, jobs/, metrics/ import lib/, errors.ts, limits.ts, config.ts (types) and db/; mail/ may add jobs/ and metrics/.',
      severity: 'error',
      from: production('^src/(db|storage|jobs|metrics|mail)/'),
      to: { path: '^src/(child-pool|pdf|render)/' },
    },
    {
      name: 'stores-not-sideways',
      comment: 'db/, storage/, jobs/, metrics/ do not import each other, except db/ (and mail/ imports jobs/, metrics/).',
      severity: 'error',
      from: production('^src/(db|storage|jobs|metrics)/'),
      to: { path: '^src/(storage|jobs|metrics|mail)/', pathNot: '^src/$1/' },
    },
    {
      name: 'config-types-only-in-stores',
      comment: 'The stores and mail/ receive the config: they import its types, never read it themselves.',
      severity: 'error',
      from: production('^src/(db|storage|jobs|metrics|mail)/'),
      to: { path: '^src/config\\.ts$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'child-pool-imports-lib-and-limits',
      comment: 'child-pool/ (warm child processes, child loop, memory limits) imports only lib/ and limits.ts.',
      severity: 'error',
      from: production('^src/child-pool/'),
      to: { path: '^src/', pathNot: '^src/(lib/|limits\\.ts$|child-pool/)' },
    },
    {
      name: 'pdf-render-not-to-errors',
      comment:
        'pdf/ and render/ throw their own typed errors (a class with a `reason`); the capability calling them maps it to an API code.',
      severity: 'error',
      from: production('^src/(pdf|render)/'),
      to: { path: '^src/errors\\.ts$' },
    },
    {
      name: 'pdf-render-bytes-only',
      comment: 'pdf/ and render/ import lib/, child-pool/, limits.ts (and render/ imports pdf/): bytes in, bytes out.',
      severity: 'error',
      from: production('^src/(pdf|render)/'),
      to: { path: '^src/(config\\.ts$|db/|storage/|jobs/|metrics/|mail/)' },
    },
    {
      name: 'pdf-not-to-render',
      comment: 'render/ uses pdf/, never the other way.',
      severity: 'error',
      from: production('^src/pdf/'),
      to: { path: '^src/render/' },
    },

    // The browser programs.
    {
      name: 'browser-stays-in-its-program',
      comment:
        'Browser code imports its own folder, lib/ and server schemas as `import type` only (erased at build).',
      severity: 'error',
      from: production(BROWSER),
      to: {
        path: '^src/',
        pathNot: ['^src/$1/', '^src/lib/', SHARED_WITH_BROWSER],
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'browser-no-node',
      comment:
        'Browser code imports no Node built-in (scripts/lint-imports.ts checks the lib/ modules it reaches at run time).',
      severity: 'error',
      from: production(BROWSER),
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'server-not-to-browser',
      comment: 'Server code never imports the browser programs (only the bundler reads them, by path).',
      severity: 'error',
      from: { path: '^src/', pathNot: [BROWSER, TEST_CODE] },
      to: { path: BROWSER, pathNot: SHARED_WITH_BROWSER },
    },
    {
      name: 'shared-stays-pure',
      comment: 'A module shared by the server and a browser program imports only other shared modules.',
      severity: 'error',
      from: { path: SHARED_WITH_BROWSER },
      to: { pathNot: SHARED_WITH_BROWSER },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports are seen (dependency type `type-only`): http/ may not even name a capability's type.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
  },
}
