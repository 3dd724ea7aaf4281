// sdks/typescript/README.md run as written (docs/sdks.md): each ```ts block, with `@paraph/sdk`
// pointed at src/paraph.ts, is type-checked with the repository's TypeScript, then imported as a
// module against a real Paraph (PARAPH_API_KEY and PARAPH_BASE_URL set); what it prints is read,
// and the webhook block's handler is handed a delivery Paraph really sent, then a forged one.
import assert from 'node:assert/strict'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { fileURLToPath, pathToFileURL } from 'node:url'
import ts from 'typescript'
import { WebhookReceiver } from '../../test/fixtures/webhook-receiver.ts'
import { type SdkApp, startSdkApp, work } from './sdk-test-kit.ts'

const entry = fileURLToPath(new URL('./src/paraph.ts', import.meta.url))

async function readmeBlocks(): Promise<Array<{ heading: string; code: string }>> {
  const readme = await readFile(new URL('./README.md', import.meta.url), 'utf8')
  const blocks: Array<{ heading: string; code: string }> = []
  let heading = ''
  for (const [, title, code] of readme.matchAll(/^## (.+)$|```ts\n([\s\S]*?)```/gm)) {
    if (title) heading = title
    else if (code) blocks.push({ heading, code: code.replaceAll("from '@paraph/sdk'", `from '${entry}'`) })
  }
  return blocks
}

/** Type errors of the blocks, as `file(line): message`, checked as the package's users would. */
function typeErrors(files: string[]): string[] {
  const program = ts.createProgram(files, {
    strict: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    allowImportingTsExtensions: true,
    noEmit: true,
    skipLibCheck: true,
    types: ['node'],
    typeRoots: [fileURLToPath(new URL('../../node_modules/@types', import.meta.url))],
  })
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0
    return `${d.file?.fileName ?? ''}(${line}): ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`
  })
}

describe('sdks/typescript/README.md', () => {
  let s: SdkApp
  let dir: string
  let blocks: Array<{ heading: string; code: string; file: string }>
  before(async () => {
    s = await startSdkApp({ clockStart: new Date() })
    dir = await mkdtemp(join(tmpdir(), 'paraph-sdk-readme-'))
    blocks = []
    for (const [i, block] of (await readmeBlocks()).entries()) {
      const file = join(dir, `block-${i}.mts`)
      await writeFile(file, block.code)
      blocks.push({ ...block, file })
    }
    process.env.PARAPH_API_KEY = s.key
    process.env.PARAPH_BASE_URL = s.url
  })
  after(async () => {
    await s.close()
    await rm(dir, { recursive: true, force: true })
  })

  /** Imports a block, returning its module and what it printed. */
  async function run(heading: string): Promise<{ module: Record<string, unknown>; printed: string[] }> {
    const block = blocks.find((b) => b.heading === heading)
    assert.ok(block, `README has a ts block under "## ${heading}"`)
    const printed: string[] = []
    // The blocks print with console.log, as a reader's program would; the test reads it.
    const console = globalThis.console
    const log = console.log
    console.log = (...values: unknown[]) => void printed.push(values.map(String).join(' '))
    try {
      return { module: await import(pathToFileURL(block.file).href), printed }
    } finally {
      console.log = log
    }
  }

  it('every ts block type-checks against the SDK', () => {
    assert.deepEqual(
      blocks.map((b) => b.heading),
      ['A first call', 'Retries and idempotency', 'Pagination', 'Errors', 'Webhooks'],
    )
    assert.deepEqual(typeErrors(blocks.map((b) => b.file)), [])
  })

  it('the first call creates a submission and reads it back', async () => {
    const { printed } = await run('A first call')
    assert.match(printed[0] ?? '', /^sub_\w{24} http:\/\/127\.0\.0\.1:\d+\/s\/\w+$/)
    assert.deepEqual(printed.slice(1), ['sent'])
  })

  it('retries and idempotency: the same key is the same submission; the health call answers', async () => {
    const { printed } = await run('Retries and idempotency')
    assert.deepEqual(printed, ['true', 'test'])
  })

  it('pagination walks the sent submissions and prints a page of events', async () => {
    const { printed } = await run('Pagination')
    const walked = printed.slice(0, -1)
    assert.equal(walked.length, 1, 'the first call sent one; the idempotent block sent no mail (created)')
    assert.ok(walked.every((line) => /^sub_\w{24} \d{4}-/.test(line)))
    const [count, hasMore, cursor] = (printed.at(-1) ?? '').split(' ')
    assert.ok(Number(count) >= 3 && Number(count) <= 5, `a page of events: ${printed.at(-1)}`)
    assert.equal(hasMore === 'true', cursor !== 'null', 'a next cursor exactly when there is more')
  })

  it('errors: a 422 with its code, param and request id', async () => {
    const { printed } = await run('Errors')
    assert.match(printed[0] ?? '', /^422 invalid_request submitters\[0\]\.email req_\w+$/)
  })

  it("the webhook handler answers 200 to Paraph's delivery and 400 to a changed one", async () => {
    const receiver = await WebhookReceiver.start()
    try {
      const paraph = new (await import('./src/paraph.ts')).Paraph({ apiKey: s.key, baseUrl: s.url })
      const endpoint = await paraph.createWebhookEndpoint({
        body: { url: receiver.url(), events: ['submission.cancelled'] },
      })
      process.env.PARAPH_WEBHOOK_SECRETS = endpoint.secret
      const { module } = await run('Webhooks')
      const handle = module.onParaphWebhook as (body: string, header: string | undefined) => Promise<number>
      const page = await paraph.listSubmissions({ query: { limit: 1 } })
      await paraph.cancelSubmission({ path: { id: page.data[0]!.id } })
      await work(s.t)
      await receiver.waitFor(1)
      const [hook] = receiver.received
      const header = String(hook!.headers['paraph-signature'])
      assert.equal(await handle(hook!.body, header), 200)
      assert.equal(await handle(hook!.body.replace('cancelled', 'completed'), header), 400)
      assert.equal(await handle(hook!.body, undefined), 400)
    } finally {
      await receiver.close()
    }
  })
})
