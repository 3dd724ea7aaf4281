// The test app for the console's own tests: the real app, plus the console's page routes when
// app.ts does not register them yet (they land there with the back end's branch).
import { startTestApp, type TestApp, type TestAppOptions } from '../../test/harness.ts'
import { API_ROUTES } from '../app.ts'
import { CONSOLE_PAGE_ROUTES } from './get-console-page.ts'

export async function startConsoleApp(options: TestAppOptions = {}): Promise<TestApp> {
  const t = await startTestApp(options)
  if (t.app.registeredRoutes.includes('GET /console/')) return t
  await t.close()
  return startTestApp({ ...options, routes: [...(options.routes ?? API_ROUTES), ...CONSOLE_PAGE_ROUTES] })
}
