// POST /s/{slug}/sign of a signer who is not the last (the first of three, each with a
// signature image and a text value), one request at a time against `paraph serve` with its worker,
// beside the floor (sign-floor-server.ts: bare Fastify doing one comparable transaction on the same
// database), the two alternating request by request. A pause after each request lets the worker
// run the jobs it enqueued (the next signer's mail, events): the latency of one signature, not of
// a queue. The second row signs as a member of a signer group of two (docs/api.md#signer-groups:
// the member's link resolved, the group's row and both members' moved) beside the same floor: the
// target is the sign row's.
import { setTimeout as sleep } from 'node:timers/promises'
import { a4 } from '../../test/fixtures/pdfs.ts'
import { inThrowawaySchema } from '../postgres.ts'
import {
  type BenchContext,
  type LimitRow,
  type LimitScenario,
  oneAtATimeFigures,
  type SkippedRow,
} from '../scenario.ts'
import { type RunningServer, startParaph, startSignFloor } from '../servers.ts'
import { createToSign, sign, signBody } from '../signing.ts'
import { percentile } from '../stats.ts'
import { inline } from '../submissions.ts'

const NAME = 'POST /s/{slug}/sign (not the last signer)'
const GROUP_NAME = 'POST /s/{slug}/sign as a signer group member (not the last signer)'
const WARM_UPS = 20
const RUNS = 150
const PAUSE_MS = 25

const fixed = (n: number) => n.toFixed(1)

async function runEngine(
  databaseUrl: string | null,
  engine: string,
  { name, group }: { name: string; group: boolean },
): Promise<LimitRow> {
  const paraph = await startParaph(databaseUrl, {}, [], { worker: true })
  let floor: RunningServer | undefined
  try {
    floor = await startSignFloor(paraph.databaseUrl!)
    const source = inline(await a4())
    // Two submissions per measured pair: one signed through Paraph, one through the floor.
    const total = WARM_UPS + RUNS
    const toSign = []
    // Paraph's submissions (even) have the group when `group`; the floor's (odd) sign a plain signer.
    for (let i = 0; i < 2 * total; i++)
      toSign.push(await createToSign(paraph, source, { group: group && i % 2 === 0 }))
    const body = signBody(0)
    const paraphMs: number[] = []
    const floorMs: number[] = []
    for (let i = 0; i < total; i++) {
      const [first, second] = [toSign[2 * i]!, toSign[2 * i + 1]!]
      // Alternate which goes first, so neither always follows the other's worker activity.
      const order = i % 2 === 0 ? ['paraph', 'floor'] : ['floor', 'paraph']
      for (const who of order) {
        const ms =
          who === 'paraph'
            ? await sign(paraph, first.slugs[0]!, body)
            : await sign(floor, second.slugs[0]!, body)
        if (i >= WARM_UPS) (who === 'paraph' ? paraphMs : floorMs).push(ms)
        await sleep(PAUSE_MS)
      }
    }
    const p50 = percentile(paraphMs, 50)
    return {
      scenario: name,
      case: engine,
      figures: oneAtATimeFigures(paraphMs),
      reference: `floor p50 ${fixed(percentile(floorMs, 50))} ms`,
      notes: [
        `Paraph p50 ${fixed(p50)}, p90 ${fixed(percentile(paraphMs, 90))} ms; floor p50 ${fixed(percentile(floorMs, 50))}, p90 ${fixed(percentile(floorMs, 90))}, p99 ${fixed(percentile(floorMs, 99))} ms (${RUNS} each, ${PAUSE_MS} ms apart)`,
      ],
      judged: {
        label: 'p50',
        value: p50,
        unit: 'ms',
        max: 15,
        ...(engine === 'sqlite' ? {} : { derivation: 'the SQLite target' }),
      },
    }
  } finally {
    await floor?.stop()
    await paraph.stop()
  }
}

/** The row on SQLite, then on PostgreSQL in a throwaway schema. */
function bothEngines(name: string, group: boolean) {
  return async (ctx: BenchContext) => {
    const rows: Array<LimitRow | SkippedRow> = [await runEngine(null, 'sqlite', { name, group })]
    const postgres = await inThrowawaySchema(ctx.postgresUrl, (url) =>
      runEngine(url, 'postgres', { name, group }),
    )
    rows.push(postgres ?? { scenario: name, case: 'postgres', skipped: 'PostgreSQL unreachable' })
    return rows
  }
}

export const signScenario: LimitScenario = {
  kind: 'limit',
  name: NAME,
  description: 'the first of 3 signers signs (a PNG signature and a text), serve with its worker',
  goal: 'p50 < 15 ms on SQLite (PostgreSQL shown against the same figure); floor: bare Fastify, one comparable transaction',
  run: bothEngines(NAME, false),
}

export const signGroupScenario: LimitScenario = {
  kind: 'limit',
  name: GROUP_NAME,
  description:
    'the first of 3 signers is a group of 2; its first member signs (a PNG signature and a text), serve with its worker',
  goal: 'p50 < 15 ms on SQLite, the sign row’s target (issue #34); floor: the sign row’s, a plain signer',
  run: bothEngines(GROUP_NAME, true),
}
