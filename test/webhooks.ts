// The webhook tests' common set-up: the app with private addresses allowed (receivers on
// loopback) and a short retry schedule, an account whose owner has an e-mail address, endpoints
// and submission events made through the API, and the worker and dispatcher run on demand.
import assert from 'node:assert/strict'
import { createHmac } from 'node:crypto'
import { after, afterEach, before, beforeEach } from 'node:test'
import { createAccount } from '../src/accounts/create-account.ts'
import { jobCatalogue } from '../src/job-catalogue.ts'
import { drainJobs } from '../src/jobs/worker.ts'
import { WebhookDispatcher } from '../src/webhooks/dispatcher.ts'
import { createTemplateFor, post } from './documents.ts'
import { WebhookReceiver } from './fixtures/webhook-receiver.ts'
import { startTestApp, type TestApp, type TestAppOptions } from './harness.ts'

export const OWNER_EMAIL = 'owner@example.eu'

export interface HookApp {
  t: TestApp
  key: string
  accountId: string
  dispatcher: WebhookDispatcher
  /** A fresh account (own endpoints, own deliveries) with one endpoint to `url`. */
  fresh(url: string, events?: string[]): Promise<{ key: string; endpoint: { id: string; secret: string } }>
  /** Creates an endpoint through the API; returns its id and secret. */
  endpoint(url: string, events?: string[], key?: string): Promise<{ id: string; secret: string }>
  /** A submission created through the API (events submission.created and .sent); returns its id. */
  submission(key?: string): Promise<string>
  /** Runs the due jobs (events.publish among them), then every due delivery; returns how many attempts ran. */
  work(): Promise<number>
  close(): Promise<void>
}

export async function startHookApp(options: TestAppOptions = {}): Promise<HookApp> {
  const t = await startTestApp({
    ...options,
    env: {
      ALLOW_PRIVATE_NETWORK_URLS: 'true',
      WEBHOOK_RETRY_SCHEDULE: RETRY_SCHEDULE.join(','),
      RATE_LIMIT_TEST: '100000',
      ...options.env,
    },
  })
  const account = await createAccount(t.deps, { name: 'Hooks', ownerEmail: OWNER_EMAIL })
  const key = account.test_key
  const dispatcher = new WebhookDispatcher(t.deps)
  const hook: HookApp = {
    t,
    key,
    accountId: account.account_id,
    dispatcher,
    async endpoint(url, events = ['submission.created', 'submission.cancelled'], k = key) {
      const res = await t.request(k, {
        method: 'POST',
        url: '/v1/webhook_endpoints',
        payload: { url, events },
      })
      assert.equal(res.statusCode, 201, res.body)
      return { id: res.json().id, secret: res.json().secret }
    },
    async fresh(url, events) {
      const other = await t.account()
      return { key: other.testKey, endpoint: await hook.endpoint(url, events, other.testKey) }
    },
    async submission(k = key) {
      const tpl = await createTemplateFor(t, k)
      const res = await post(t, k, '/v1/submissions', {
        template_id: tpl,
        send_email: false,
        submitters: [
          { role: 'first', email: 'ann@example.eu' },
          { role: 'second', email: 'bob@example.eu' },
        ],
      })
      assert.equal(res.statusCode, 201, res.body)
      return res.json().id
    },
    async work() {
      await drainJobs({ ...t.deps, catalogue: jobCatalogue(t.deps) })
      return dispatcher.drain()
    },
    close: () => t.close(),
  }
  return hook
}

/** The rows of the deliveries table, oldest first. */
export function deliveries(t: TestApp) {
  return t.deps.db.selectFrom('webhook_deliveries').selectAll().orderBy('id').execute()
}

/** The deliveries to one endpoint, oldest first. */
export async function deliveriesOf(t: TestApp, endpointId: string) {
  return (await deliveries(t)).filter((d) => d.endpoint_id === endpointId)
}

/** The retry schedule the tests configure (docs/api.md#deliveries), in seconds after the event. */
export const RETRY_SCHEDULE = [0, 30, 300, 1800, 7200, 21600, 86400, 259200]

/** `t` and each `v1` of a Paraph-Signature header, asserted to have the header's exact shape. */
export function parseSignature(header: string | string[] | undefined) {
  assert.equal(typeof header, 'string')
  const parts = (header as string).split(',')
  assert.match(header as string, /^t=\d+(,v1=[0-9a-f]{64})+$/)
  return { t: Number(parts[0]!.slice(2)), v1: parts.slice(1).map((p) => p.slice(3)) }
}

/** The `v1` a receiver expects: hex HMAC-SHA256 of `t.body` under `secret`. */
export const signatureHex = (secret: string, t: number, body: string) =>
  createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')

export function attemptsOf(t: TestApp, deliveryId: string) {
  return t.deps.db
    .selectFrom('webhook_attempts')
    .selectAll()
    .where('delivery_id', '=', deliveryId)
    .orderBy('number')
    .execute()
}

export interface DeliveryContext {
  /** The app of the test file (started in `before`). */
  h: HookApp
  /** A fresh receiver on loopback for each test. */
  receiver: WebhookReceiver
  /** A fresh account with one endpoint, to this test's receiver unless `url` says otherwise. */
  fresh(url?: string, events?: string[]): ReturnType<HookApp['fresh']>
  deliveriesTo(endpointId: string): ReturnType<typeof deliveriesOf>
}

/** The delivery tests' set-up: one app per file (1 s webhook deadline), one receiver per test. */
export function useDeliveryApp(): DeliveryContext {
  const c = {
    fresh: (url?: string, events?: string[]) => c.h.fresh(url ?? c.receiver.url(), events),
    deliveriesTo: (endpointId: string) => deliveriesOf(c.h.t, endpointId),
  } as DeliveryContext
  before(async () => {
    c.h = await startHookApp({ webhookTimeoutMs: 1000 })
  })
  after(() => c.h.close())
  beforeEach(async () => {
    c.receiver = await WebhookReceiver.start()
  })
  afterEach(() => c.receiver.close())
  return c
}
