// No dead relative link or anchor in README.md, docs/ and sdks/, and no comment in the code citing a doc or
// a heading that does not exist (`docs/api.md#limits`). Touches no database; it runs in both engine
// passes like every test file.
import assert from 'node:assert/strict'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'
import {
  anchorsOf,
  citationsOf,
  type DocSource,
  deadCitations,
  deadLinks,
  headingSlug,
  linksOf,
} from './docs-links.ts'

const ROOT = fileURLToPath(new URL('..', import.meta.url))

function filesUnder(dir: string, extensions: readonly string[]): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && extensions.some((ext) => entry.name.endsWith(ext)))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)))
    .filter((path) => !path.split('/').includes('node_modules'))
    .sort()
}

function markdownUnder(dir: string): string[] {
  return filesUnder(dir, ['.md'])
}

const repository: DocSource = {
  exists: (path) => existsSync(join(ROOT, path)),
  read: (path) => readFileSync(join(ROOT, path), 'utf8'),
}

function inMemory(files: Record<string, string>): DocSource {
  return {
    exists: (path) => path in files || Object.keys(files).some((f) => f.startsWith(`${path}/`)),
    read: (path) => files[path] ?? '',
  }
}

describe('the documentation links checker', () => {
  it('slugs headings as GitHub does: code, punctuation and emphasis dropped, spaces as hyphens', () => {
    assert.equal(headingSlug('The `paraph` command'), 'the-paraph-command')
    assert.equal(headingSlug('E-mail code (2FA)'), 'e-mail-code-2fa')
    assert.equal(headingSlug('`PARAPH_SECRET`'), 'paraph_secret')
    assert.equal(headingSlug('History, redelivery, rotation'), 'history-redelivery-rotation')
    assert.equal(headingSlug('Cost (less than 5 % of `GET /v1/health`)'), 'cost-less-than-5--of-get-v1health')
    assert.equal(headingSlug('**Bold** and [a link](x.md)'), 'bold-and-a-link')
  })

  it('numbers repeated headings and ignores headings inside fenced code', () => {
    const anchors = anchorsOf('# Title\n## Notes\n```sh\n# not a heading\n```\n## Notes\n')
    assert.deepEqual([...anchors], ['title', 'notes', 'notes-1'])
  })

  it('reads inline and reference links, not those in code', () => {
    const text = 'See [a](a.md) and [b](b.md#x "title").\n`[c](c.md)`\n```\n[d](d.md)\n```\n[e]: e.md\n'
    assert.deepEqual(
      linksOf(text).map((l) => l.target),
      ['a.md', 'b.md#x', 'e.md'],
    )
  })

  it('reports a missing file, a missing anchor in another file and in the same file; passes the rest', () => {
    const dead = deadLinks(
      ['README.md', 'docs/guide.md'],
      inMemory({
        'README.md': [
          '# Readme',
          '[guide](docs/guide.md) [part](docs/guide.md#part-two) [web](https://example.com/x.md)',
          '[gone](docs/gone.md)',
          '[wrong](docs/guide.md#part-three)',
        ].join('\n'),
        'docs/guide.md':
          '# Guide\n## Part two\n[back](../README.md#readme) [self](#nowhere) [dir](../docs)\n',
      }),
    )
    assert.deepEqual(
      dead.map((d) => `${d.file}:${d.line} ${d.target}`),
      ['README.md:3 docs/gone.md', 'README.md:4 docs/guide.md#part-three', 'docs/guide.md:3 #nowhere'],
    )
  })

  it('finds the docs the code cites, with or without a heading, on their lines', () => {
    const text =
      '// see docs/api.md#limits and docs/scaling.md.\nconst x = 1 // (docs/decisions/0001-pdf-engine.md)\n'
    assert.deepEqual(
      citationsOf(text).map((c) => `${c.line} ${c.target}`),
      ['1 docs/api.md#limits', '1 docs/scaling.md', '2 docs/decisions/0001-pdf-engine.md'],
    )
    const dead = deadCitations(
      ['src/a.ts'],
      inMemory({
        'src/a.ts': '// docs/guide.md#part-two docs/guide.md#part-three docs/gone.md',
        'docs/guide.md': '# Guide\n## Part two\n',
      }),
    )
    assert.deepEqual(
      dead.map((d) => `${d.line} ${d.target}: ${d.reason}`),
      ['1 docs/guide.md#part-three: no such heading', '1 docs/gone.md: no such file'],
    )
  })

  it('refuses a link that leaves the repository', () => {
    const dead = deadLinks(['docs/a.md'], inMemory({ 'docs/a.md': '[spec](../../shared/spec/api-v1.md)' }))
    assert.equal(dead.length, 1)
  })
})

describe('README.md, docs/ and sdks/', () => {
  const files = ['README.md', ...markdownUnder('docs'), ...markdownUnder('sdks')]

  it('have no dead relative link or anchor', () => {
    const dead = deadLinks(files, repository)
    assert.deepEqual(
      dead.map((d) => `${d.file}:${d.line} ${d.target}: ${d.reason}`),
      [],
    )
  })

  it('the README links every guide in docs/', () => {
    const linked = new Set(linksOf(repository.read('README.md')).map((l) => l.target.split('#')[0]))
    const unlinked = files.filter((f) => f.startsWith('docs/') && !linked.has(f))
    assert.deepEqual(unlinked, [])
  })
})

describe('the code cites docs that exist', () => {
  // Comments cite this repository's docs (`docs/api.md#limits`), never an outside contract: every
  // cited file and heading must exist. This file is left out: its examples are deliberately dead.
  const sources = ['src', 'test', 'scripts', 'bench', 'sdks']
    .flatMap((dir) => filesUnder(dir, ['.ts', '.tsx', '.mjs', '.js', '.sh', '.css']))
    .filter((path) => path !== 'test/docs-links.test.ts')

  it('every docs/….md and docs/….md#heading cited in src/, test/, scripts/, bench/ and sdks/ exists', () => {
    const dead = deadCitations(sources, repository)
    assert.deepEqual(
      dead.map((d) => `${d.file}:${d.line} ${d.target}: ${d.reason}`),
      [],
    )
  })
})
