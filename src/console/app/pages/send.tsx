// Sending a template for signature (issue #23 Deliver 4, docs/console.md "Sending from a
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
    /^submitters\[\d+\]\.(email|name)$/.test(path) ||
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

/** What the form holds, as POST /v1/submissions takes it (empty texts and expiry left out). */
interface Draft {
  signers: Signer[]
  order: Order
  subject: string
  body: string
  expires: string
  sendEmail: boolean
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
      email: s.email.trim(),
      ...(s.name.trim() ? { name: s.name.trim() } : {}),
      ...(s.email2fa ? { require_email_2fa: true } : {}),
    })),
    signing_order: draft.order,
    send_email: draft.sendEmail,
    ...(Object.keys(message).length > 0 ? { message } : {}),
    ...(expiresAt ? { expires_at: expiresAt } : {}),
  }
}

/** POST /v1/submissions with a new Idempotency-Key only for a new content: the same form sent again is the same submission. */
function useCreateSubmission() {
  const attempt = useRef<{ body: string; key: string } | undefined>(undefined)
  return useAction((request: object) => {
    const text = JSON.stringify(request)
    if (attempt.current?.body !== text) attempt.current = { body: text, key: newIdempotencyKey() }
    return call<{ id: string }>('POST', '/v1/submissions', request, { idempotencyKey: attempt.current.key })
  })
}

function SendForm({ template }: { template: Template }) {
  const { t } = useTexts()
  const toast = useToast()
  const [signers, setSigners] = useState<Signer[]>(() =>
    template.roles.map((role) => ({ role, email: '', name: '', email2fa: false })),
  )
  const [order, setOrder] = useState<Order>('preserved')
  const [subject, setSubject] = useState('')
  const [body, setBody] = useState('')
  const [expires, setExpires] = useState('')
  const [expiresPast, setExpiresPast] = useState(false)
  const [sendEmail, setSendEmail] = useState(true)
  const inFlight = useRef(false)
  const send = useCreateSubmission()
  const field = fieldOf(send.error)
  const errorAt = (path: string) => (field === path ? send.error!.message : null)
  const clearIf = (edited: (field: string) => boolean) => {
    if (field && edited(field)) send.clear()
  }

  const submit = async (event: Event) => {
    event.preventDefault()
    if (inFlight.current) return
    const expiresAt = isoOf(expires)
    if (expiresAt && new Date(expiresAt).getTime() <= Date.now()) {
      setExpiresPast(true)
      document.getElementById('send-expires')?.focus()
      return
    }
    inFlight.current = true
    const done = await send.run(requestOf(template.id, { signers, order, subject, body, expires, sendEmail }))
    inFlight.current = false
    if (!done) return
    toast(t.send_sent)
    navigate(`/submissions/${done.value.id}`)
  }

  return (
    <form class="send-form" onSubmit={submit}>
      <p class="muted">{t.send_intro}</p>
      <SignersSection
        signers={signers}
        setSigners={setSigners}
        order={order}
        onOrder={setOrder}
        errorAt={errorAt}
        onEdited={(index) => clearIf((f) => f.startsWith(`submitters[${index}]`))}
      />
      <MessageSection
        subject={subject}
        body={body}
        errorAt={errorAt}
        onText={(which: MessagePart, value) => {
          ;(which === 'subject' ? setSubject : setBody)(value)
          clearIf((f) => f === `message.${which}`)
        }}
      />
      <OptionsSection
        expires={expires}
        expiresError={expiresPast ? t.send_expires_past : errorAt('expires_at')}
        onExpires={(value) => {
          setExpires(value)
          setExpiresPast(false)
          clearIf((f) => f === 'expires_at')
        }}
        sendEmail={sendEmail}
        onSendEmail={setSendEmail}
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
