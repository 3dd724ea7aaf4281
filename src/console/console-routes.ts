// Every route of the console's own API (/console/api, docs/console.md) and its sign-in pages: what
// the public API has no route for. Kept out of the public OpenAPI document; registered by app.ts.
import type { AnyRoute } from '../http/define-route.ts'
import { createSignInLinks } from './create-sign-in-links.ts'
import { readConsoleSession } from './read-console-session.ts'
import { getSignInPage, signInWithLink } from './sign-in-with-link.ts'
import { signOutConsole } from './sign-out-console.ts'
import { switchConsoleEnvironment } from './switch-console-environment.ts'

export const CONSOLE_API_ROUTES: AnyRoute[] = [
  createSignInLinks,
  getSignInPage,
  signInWithLink,
  readConsoleSession,
  switchConsoleEnvironment,
  signOutConsole,
]
