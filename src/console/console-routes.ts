// Every route of the console's own API (/console/api, docs/console.md) and its sign-in pages: what
// the public API has no route for. Kept out of the public OpenAPI document; registered by app.ts.
import type { AnyRoute } from '../http/define-route.ts'
import { readConsoleSession } from './read-console-session.ts'
import { signOutConsole } from './sign-out-console.ts'
import { switchConsoleEnvironment } from './switch-console-environment.ts'

export const CONSOLE_API_ROUTES: AnyRoute[] = [readConsoleSession, switchConsoleEnvironment, signOutConsole]
