// What the fuzz runs against: every route the app registers, and real rows (templates, submissions,
// submitters, signing slugs, embed and file tokens) so that some generated requests find them.
import fc from 'fast-check'
import { API_ROUTES } from '../../src/app.ts'
import { CONSOLE_API_ROUTES } from '../../src/console/console-routes.ts'
import { CONSOLE_PAGE_ROUTES } from '../../src/console/shell/get-console-page.ts'
import type { AnyRoute } from '../../src/http/define-route.ts'
import { getLiveness, getReadiness } from '../../src/http/health.ts'
import { openApiRoute } from '../../src/http/openapi.ts'
import { insertEndpoint } from '../../src/webhooks/endpoint-store.ts'
import { WEBHOOK_SECTION } from '../../src/webhooks/webhook-events.ts'
import { newWebhookSecret, sealSecret } from '../../src/webhooks/webhook-secret.ts'
import { base64, createTemplateFor, post } from '../documents.ts'
import { a4 } from '../fixtures/pdfs.ts'
import type { TestApp } from '../harness.ts'
import { hints } from './known-values.ts'
import type { GenContext, JsonSchema } from './schema-arbitrary.ts'
import type { Target } from './wire.ts'

/** Real rows a request may name: their ids (for schema-generated ids) and their paths. */
export interface Seeds {
  ctx: GenContext
  /** `/v1/submissions/sub_…`, `/s/<slug>`, `/embed/<jwt>`, `/files/<token>`… */
  paths: string[]
}

export interface World {
  key: string
  seeds: Seeds
  /** Rows kept apart for DELETE routes: archiving and cancelling leave the others usable. */
  spare: Seeds
  /** A real `next_cursor` of each list route, by route url. */
  cursors: Record<string, string[]>
}

/** API_ROUTES and the operational routes buildApp adds (app.ts operationalRoutes). */
export function fuzzedRoutes(): AnyRoute[] {
  // Only the definition is read (method, url, schemas, codes); the app serves its own instance.
  return [
    ...API_ROUTES,
    getLiveness,
    getReadiness,
    openApiRoute(() => API_ROUTES, 'http://127.0.0.1', WEBHOOK_SECTION),
    ...CONSOLE_API_ROUTES,
    ...CONSOLE_PAGE_ROUTES,
  ]
}

type Created = { id: string; submitters: Array<{ id: string; signing_url: string; embed_src: string }> }

/** A template and a submission of two submitters on it; returns their ids and paths. */
async function seedSubmission(t: TestApp, key: string) {
  const tpl = await createTemplateFor(t, key)
  const res = await post(t, key, '/v1/submissions', {
    template_id: tpl,
    submitters: [
      { role: 'first', email: 'ann@example.eu' },
      // Asked for an e-mail code, so the email_2fa routes reach past 409 email_2fa_not_required.
      { role: 'second', email: 'bob@example.eu', require_email_2fa: true },
    ],
  })
  if (res.statusCode !== 201) throw new Error(`seeding a submission failed: ${res.body}`)
  const sub = res.json() as Created
  const paths = [`/v1/templates/${tpl}`, `/v1/submissions/${sub.id}`]
  for (const s of sub.submitters) {
    paths.push(`/v1/submitters/${s.id}`, new URL(s.signing_url).pathname, new URL(s.embed_src).pathname)
  }
  const docs = await t.request(key, { method: 'GET', url: `/v1/submissions/${sub.id}/documents` })
  paths.push(new URL((docs.json() as { original_pdf_url: string }).original_pdf_url).pathname)
  const whk = await seedEndpoint(t, key)
  paths.push(`/v1/webhook_endpoints/${whk}`)
  return { ids: { tpl: [tpl], sub: [sub.id], sbm: sub.submitters.map((s) => s.id), whk: [whk] }, paths }
}

/**
 * A webhook endpoint written straight to the table: its loopback URL is refused by the SSRF guard
 * before any connection, so a fuzzed `POST …/test` answers at once and reaches nothing.
 */
async function seedEndpoint(t: TestApp, key: string): Promise<string> {
  const res = await t.request(key, { method: 'GET', url: '/v1/health' })
  const { account_id: accountId, environment } = res.json() as { account_id: string; environment: 'test' }
  const id = t.deps.ids.next('whk')
  await t.deps.db.transaction().execute((tx) =>
    insertEndpoint(
      tx,
      { accountId, environment },
      {
        id,
        url: 'https://127.0.0.1/hook',
        events: '["submission.completed"]',
        secret_sealed: sealSecret(t.deps.keys.webhookSecret, newWebhookSecret()),
        created_at: t.deps.clock.now().toISOString(),
      },
    ),
  )
  return id
}

/** An account with five templates, each with a submission of two submitters; two are for DELETE routes. */
export async function seedWorld(t: TestApp): Promise<World> {
  const { testKey } = await t.account()
  const known = hints(base64(await a4()))
  const seeds = async (n: number): Promise<Seeds> => {
    const ids: Record<string, string[]> = {}
    const paths: string[] = []
    for (let i = 0; i < n; i++) {
      const one = await seedSubmission(t, testKey)
      for (const [prefix, list] of Object.entries(one.ids)) ids[prefix] = [...(ids[prefix] ?? []), ...list]
      paths.push(...one.paths)
    }
    return { ctx: { ids, hints: known }, paths }
  }
  return { key: testKey, seeds: await seeds(3), spare: await seeds(2), cursors: await cursorsOf(t, testKey) }
}

/** The second page's cursor of every list route (a route without path parameters that takes `cursor`). */
async function cursorsOf(t: TestApp, key: string): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {}
  for (const route of API_ROUTES) {
    const query = route.schema.querystring as JsonSchema | undefined
    if (route.method !== 'GET' || route.url.includes(':') || !query?.properties?.cursor) continue
    const res = await t.request(key, { method: 'GET', url: `${route.url}?limit=1` })
    const next = (res.json() as { next_cursor?: string | null }).next_cursor
    if (next) out[route.url] = [next]
  }
  return out
}

/**
 * The route with the rows and values its requests may name. DELETE and PATCH routes get the spare
 * rows: a PATCH of an address gives its submitter a new signing link, which the seeds' paths lack.
 */
export function targetFor(route: AnyRoute, world: World): Target {
  const { ctx, paths } = route.method === 'DELETE' || route.method === 'PATCH' ? world.spare : world.seeds
  const cursors = world.cursors[route.url] ?? []
  const hints = cursors.length > 0 ? { ...ctx.hints, cursor: () => fc.constantFrom(...cursors) } : ctx.hints
  return { route, key: world.key, ctx: { ...ctx, hints }, pathSeeds: pathSeeds(route.url, paths) }
}

/** Values of the route's path parameters found at the same place in real paths (`/s/:slug` ← `/s/abc`). */
export function pathSeeds(url: string, paths: string[]): Record<string, string[]> {
  const pattern = url.split('/')
  const out: Record<string, string[]> = {}
  for (const path of paths) {
    const segments = path.split('/')
    const found: Array<[string, string]> = []
    const n = Math.min(pattern.length, segments.length)
    const same = pattern.slice(0, n).every((p, i) => p.startsWith(':') || p === segments[i])
    for (let i = 0; i < n; i++)
      if (pattern[i]!.startsWith(':')) found.push([pattern[i]!.slice(1), segments[i]!])
    const wanted = pattern.filter((p) => p.startsWith(':')).length
    if (!same || found.length !== wanted) continue
    for (const [name, value] of found) out[name] = [...(out[name] ?? []), decodeURIComponent(value)]
  }
  return out
}
