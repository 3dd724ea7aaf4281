// Sending a template for signature (docs/console.md "Sending from a
// template"): each role's signer, the order, the message with the mail variables, the expiry, e-mail
// on or off, then POST /v1/submissions. One Idempotency-Key per content of the form: the same body
// sent again (a double click, a retry after a lost answer) reuses it, so one submission is made.
import { useRef, useState } from 'preact/hooks'
import { type ApiFailure, call, newIdempotencyKey } from '../api.ts'
import { navigate } from '../router.ts'
import type { PageProps } from '../routes.tsx'
import { Link } from '../shell.tsx'
import { fill, useTexts } from '../texts.ts'
import type { Template } from '../types.ts'
import { Empty, ErrorNote, Loading, PageHeader, useAction, useGet, useToast } from '../ui.tsx'
import { described, FieldError } from './send-field-error.tsx'
import { type MessagePart, MessageSection } from './send-message.tsx'
import { type Order, type Signer, SignersSection } from './send-signers.tsx'

/** The form's input an API error is about (its `param`: `submitters[1].email`, `expires_at`), or null. */
function fieldOf(error: ApiFailure | undefined): string | null {
  const path = error?.status === 422 ? error.param : null
  if (!path) return null
  if (
    /^submitters\[\d+\]\.(email|name|members|members\[\d+\]\.email)$/.test(path) ||
    ['expires_at', 'message.subject', 'message.body'].includes(path)
  )
    return path
  return null
}

/** `2026-11-30T09:00` (the local time a datetime-local input holds) → ISO, or null when empty or unreadable. */
function isoOf(local: string): string | null {
  const time = local ? new Date(local).getTime() : Number.NaN
  return Number.isNaN(time) ? null : new Date(time).toISOString()
}

export function SendTemplate({ params }: PageProps) {
  const { t } = useTexts()
  const template = useGet<Template>(`/v1/templates/${encodeURIComponent(params.id!)}`)
  const tpl = template.data
  return (
    <>
      <p class="breadcrumb">
        <Link to="/templates">← {t.nav_templates}</Link>
      </p>
      <PageHeader title={tpl ? fill(t.send_title, { name: tpl.name }) : t.send} />
      <ErrorNote error={template.error} />
      {!tpl && !template.error ? <Loading /> : null}
      {tpl && tpl.status !== 'active' ? <Empty title={t.send_archived} /> : null}
      {tpl && tpl.status === 'active' ? <SendForm template={tpl} /> : null}
    </>
  )
}

/** What the form holds; requestOf makes it the body of POST /v1/submissions (empty texts and expiry left out). */
interface Draft {
  signers: Signer[]
  order: Order
  subject: string
  body: string
  expires: string
  sendEmail: boolean
}

function emptyDraft(template: Template): Draft {
  const signers = template.roles.map((role) => ({ role, email: '', others: [], name: '', email2fa: false }))
  return { signers, order: 'preserved', subject: '', body: '', expires: '', sendEmail: true }
}

function requestOf(templateId: string, draft: Draft) {
  const message = {
    ...(draft.subject.trim() ? { subject: draft.subject.trim() } : {}),
    ...(draft.body.trim() ? { body: draft.body } : {}),
  }
  const expiresAt = isoOf(draft.expires)
  return {
    template_id: templateId,
    submitters: draft.signers.map((s) => ({
      role: s.role,
      // docs/api.md#signer-groups: several addresses make a group, any one of whom signs.
      ...(s.others.length > 0
        ? { members: [s.email, ...s.others].map((email) => ({ email: email.trim() })) }
        : { email: s.email.trim() }),
      ...(s.name.trim() ? { name: s.name.trim() } : {}),
      ...(s.email2fa ? { require_email_2fa: true } : {}),
    })),
    signing_order: draft.order,
    send_email: draft.sendEmail,
    ...(Object.keys(message).length > 0 ? { message } : {}),
    ...(expiresAt ? { expires_at: expiresAt } : {}),
  }
}

/**
 * Sends the form, one request at a time; an expiry already past is refused before any request.
 * POST /v1/submissions takes a new Idempotency-Key only for a new content: the same form sent again
 * is the same submission.
 */
function useSendDraft(template: Template, onExpiresPast: () => void) {
  const { t } = useTexts()
  const toast = useToast()
  const attempt = useRef<{ body: string; key: string } | undefined>(undefined)
  const inFlight = useRef(false)
  const send = useAction((request: object) => {
    const text = JSON.stringify(request)
    if (attempt.current?.body !== text) attempt.current = { body: text, key: newIdempotencyKey() }
    return call<{ id: string }>('POST', '/v1/submissions', request, { idempotencyKey: attempt.current.key })
  })
  const submit = async (draft: Draft) => {
    if (inFlight.current) return
    const expiresAt = isoOf(draft.expires)
    if (expiresAt && new Date(expiresAt).getTime() <= Date.now()) return onExpiresPast()
    inFlight.current = true
    const done = await send.run(requestOf(template.id, draft))
    inFlight.current = false
    if (!done) return
    toast(fill(t.send_sent_named, { name: template.name }))
    navigate(`/submissions/${done.value.id}`)
  }
  return { ...send, submit }
}

function SendForm({ template }: { template: Template }) {
  const { t } = useTexts()
  const [draft, setDraft] = useState<Draft>(() => emptyDraft(template))
  const patch = (change: Partial<Draft>) => setDraft((current) => ({ ...current, ...change }))
  const [expiresPast, setExpiresPast] = useState(false)
  const send = useSendDraft(template, () => {
    setExpiresPast(true)
    document.getElementById('send-expires')?.focus()
  })
  const field = fieldOf(send.error)
  const errorAt = (path: string) => (field === path ? send.error!.message : null)
  const clearIf = (edited: (field: string) => boolean) => {
    if (field && edited(field)) send.clear()
  }
  const submit = (event: Event) => {
    event.preventDefault()
    void send.submit(draft)
  }

  return (
    <form class="send-form" onSubmit={submit}>
      <p class="muted">{t.send_intro}</p>
      <SignersSection
        signers={draft.signers}
        setSigners={(change) => setDraft((current) => ({ ...current, signers: change(current.signers) }))}
        order={draft.order}
        onOrder={(order) => patch({ order })}
        errorAt={errorAt}
        onEdited={(index) => clearIf((f) => f.startsWith(`submitters[${index}]`))}
      />
      <MessageSection
        subject={draft.subject}
        body={draft.body}
        errorAt={errorAt}
        onText={(which: MessagePart, value) => {
          patch({ [which]: value })
          clearIf((f) => f === `message.${which}`)
        }}
      />
      <OptionsSection
        expires={draft.expires}
        expiresError={expiresPast ? t.send_expires_past : errorAt('expires_at')}
        onExpires={(expires) => {
          patch({ expires })
          setExpiresPast(false)
          clearIf((f) => f === 'expires_at')
        }}
        sendEmail={draft.sendEmail}
        onSendEmail={(sendEmail) => patch({ sendEmail })}
      />
      {field ? null : <ErrorNote error={send.error} />}
      <div class="send-actions">
        <button type="submit" class="button primary" disabled={send.busy}>
          {send.busy ? t.send_sending : t.send_submit}
        </button>
      </div>
    </form>
  )
}

function OptionsSection(props: {
  expires: string
  expiresError: string | null
  onExpires: (value: string) => void
  sendEmail: boolean
  onSendEmail: (on: boolean) => void
}) {
  const { t } = useTexts()
  return (
    <section class="panel" aria-labelledby="send-options-title">
      <h2 id="send-options-title">{t.send_options}</h2>
      <label for="send-expires">{t.send_expires}</label>
      <input
        id="send-expires"
        type="datetime-local"
        value={props.expires}
        {...described('send-expires', props.expiresError, 'send-expires-hint')}
        onInput={(e) => props.onExpires(e.currentTarget.value)}
      />
      {props.expiresError ? (
        <FieldError id="send-expires-error" text={props.expiresError} />
      ) : (
        <p class="muted small" id="send-expires-hint">
          {t.send_expires_hint}
        </p>
      )}
      <label class="checkbox send-email">
        <input
          type="checkbox"
          checked={props.sendEmail}
          onChange={(e) => props.onSendEmail(e.currentTarget.checked)}
        />
        {t.send_email_on}
      </label>
      {props.sendEmail ? null : <p class="warning">{t.send_email_off_hint}</p>}
    </section>
  )
}
