// The app wired to a real SMTP server on loopback, and its worker run on demand: the mail tests'
// common set-up.
import { jobCatalogue } from '../src/job-catalogue.ts'
import { drainJobs } from '../src/jobs/worker.ts'
import { type SmtpTestOptions, SmtpTestServer } from './fixtures/smtp.ts'
import { startTestApp, type TestApp } from './harness.ts'

export interface MailTestApp {
  t: TestApp
  smtp: SmtpTestServer
  key: string
  /** Runs every job due now (mail, events, finalization) as `paraph worker` would; returns how many ran. */
  work(): Promise<number>
  close(): Promise<void>
}

export async function startMailApp(
  env: Record<string, string> = {},
  smtpOptions: SmtpTestOptions = {},
): Promise<MailTestApp> {
  const smtp = await SmtpTestServer.start(smtpOptions)
  const t = await startTestApp({ env: { SMTP_URL: smtp.url, ...env } })
  const key = (await t.account()).testKey
  return {
    t,
    smtp,
    key,
    work: () => drainJobs({ ...t.deps, catalogue: jobCatalogue(t.deps) }),
    async close() {
      await t.close()
      await smtp.stop()
    },
  }
}
