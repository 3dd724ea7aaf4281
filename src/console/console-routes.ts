// Every route of the console's own API (/console/api, docs/console.md) and its sign-in pages: what
// the public API has no route for. Kept out of the public OpenAPI document; registered by app.ts.
import type { AnyRoute } from '../http/define-route.ts'
import { addConsoleMember } from './add-console-member.ts'
import { changeConsoleMemberRole } from './change-console-member-role.ts'
import { createConsoleKey } from './create-console-key.ts'
import { createSignInLinks } from './create-sign-in-links.ts'
import { createTemplateDraft } from './create-template-draft.ts'
import { createTemplateDraftFromTemplate } from './create-template-draft-from-template.ts'
import { createTemplateFromDraft } from './create-template-from-draft.ts'
import { getTemplateDraftPage } from './get-template-draft-page.ts'
import { listConsoleKeys } from './list-console-keys.ts'
import { listConsoleMembers } from './list-console-members.ts'
import { readConsoleSession } from './read-console-session.ts'
import { removeConsoleMember } from './remove-console-member.ts'
import { resendSigningRequest } from './resend-signing-request.ts'
import { revokeConsoleKey } from './revoke-console-key.ts'
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
  listConsoleKeys,
  createConsoleKey,
  revokeConsoleKey,
  listConsoleMembers,
  addConsoleMember,
  changeConsoleMemberRole,
  removeConsoleMember,
  createTemplateDraft,
  getTemplateDraftPage,
  createTemplateFromDraft,
  // — template editor: a draft from a saved template
  createTemplateDraftFromTemplate,
  // — sending
  resendSigningRequest,
]
