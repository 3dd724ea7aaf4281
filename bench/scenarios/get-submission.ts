// Authenticated GET /v1/submissions/{id} of a submission with three submitters (the
// submission and its submitters read after the key lookup, 1.9 KB of JSON) against a bare Fastify
// route answering the same shape, on SQLite and on PostgreSQL. The submission is created through
// the real API first. Judged against the floor row (bare Fastify doing only this read)
// of the same engine in the same run rather than a fixed share of bare: what the machine leaves
// room for moves with the machine, and the floor's ratio shows it.
import { a4 } from '../../test/fixtures/pdfs.ts'
import { runOnBothEngines } from '../paired-case.ts'
import type { Scenario } from '../scenario.ts'
import { createSubmission, inline } from '../submissions.ts'
import { FLOOR_NAME } from './get-submission-floor.ts'

const NAME = 'GET /v1/submissions/{id}'

/** Same keys at the top and in each submitter, and as many submitters. */
function sameShape(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const keys = (o: unknown) =>
    Object.keys(o ?? {})
      .sort()
      .join()
  const submitters = (o: Record<string, unknown>) => (o.submitters ?? []) as unknown[]
  return (
    keys(a) === keys(b) &&
    submitters(a).length === submitters(b).length &&
    submitters(a).every((s, i) => keys(s) === keys(submitters(b)[i]))
  )
}

export const getSubmissionScenario: Scenario = {
  name: NAME,
  description:
    'authenticated GET of a 3-submitter submission vs a bare Fastify route with the same JSON shape',
  // Auth, rate limit, access log and response schema may cost at most a tenth of the floor's ratio.
  target: { minRatio: { share: 0.9, ofScenario: FLOOR_NAME }, maxP99Ms: 10 },
  run: (ctx) =>
    runOnBothEngines(ctx, {
      scenario: NAME,
      path: async (subject) => `/v1/submissions/${await createSubmission(subject, inline(await a4()))}`,
      sameShape,
    }),
}
