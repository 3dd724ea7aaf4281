// Every route of the console's own API (/console/api, docs/console.md) and its sign-in pages: what
// the public API has no route for. Kept out of the public OpenAPI document; registered by app.ts.
import type { AnyRoute } from '../http/define-route.ts'
import { createSignInLinks } from './access/create-sign-in-links.ts'
import { readConsoleSession } from './access/read-console-session.ts'
import { getSignInPage, signInWithLink } from './access/sign-in-with-link.ts'
import { signOutConsole } from './access/sign-out-console.ts'
import { switchConsoleEnvironment } from './access/switch-console-environment.ts'
import { createTemplateDraft } from './drafts/create-template-draft.ts'
import { createTemplateDraftFromTemplate } from './drafts/create-template-draft-from-template.ts'
import { createTemplateFromDraft } from './drafts/create-template-from-draft.ts'
import { discardTemplateDraft } from './drafts/discard-template-draft.ts'
import { getTemplateDraft } from './drafts/get-template-draft.ts'
import { getTemplateDraftPage } from './drafts/get-template-draft-page.ts'
import { listTemplateDrafts } from './drafts/list-template-drafts.ts'
import { previewTemplateDraft } from './drafts/preview-template-draft.ts'
import { updateTemplateDraft } from './drafts/update-template-draft.ts'
import { createConsoleKey } from './keys/create-console-key.ts'
import { listConsoleKeys } from './keys/list-console-keys.ts'
import { renameConsoleKey } from './keys/rename-console-key.ts'
import { revokeConsoleKey } from './keys/revoke-console-key.ts'
import { addConsoleMember } from './members/add-console-member.ts'
import { changeConsoleMemberRole } from './members/change-console-member-role.ts'
import { listConsoleMembers } from './members/list-console-members.ts'
import { removeConsoleMember } from './members/remove-console-member.ts'
import { resendSigningRequest } from './resend/resend-signing-request.ts'

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
  renameConsoleKey,
  listConsoleMembers,
  addConsoleMember,
  changeConsoleMemberRole,
  removeConsoleMember,
  createTemplateDraft,
  getTemplateDraftPage,
  createTemplateFromDraft,
  // — template editor: a draft from a saved template
  createTemplateDraftFromTemplate,
  // — template editor: the work kept as it goes, resumed, discarded
  listTemplateDrafts,
  getTemplateDraft,
  updateTemplateDraft,
  discardTemplateDraft,
  // — template editor: the real signing page on a test copy that sends nothing
  previewTemplateDraft,
  // — sending
  resendSigningRequest,
]
