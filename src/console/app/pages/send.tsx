// Sending a template for signature (issue #23 Deliver 4, docs/console.md "Sending from a
// template"): each role's signer, the order, the message with the mail variables, the expiry, e-mail
// on or off, then POST /v1/submissions. One Idempotency-Key per content of the form: the same body
// sent again (a double click, a retry after a lost answer) reuses it, so one submission is made.
import { useEffect, useRef, useState } from 'preact/hooks'
import { MAIL_VARIABLES, type MailVariable } from '../../../mail/messages/variables.ts'
import { type ApiFailure, call, newIdempotencyKey } from '../api.ts'
import type { PageProps } from '../routes.tsx'
import { navigate } from '../router.ts'
import { Link } from '../shell.tsx'
import { fill, type Texts, useTexts } from '../texts.ts'
import type { Template } from '../types.ts'
import { Empty, ErrorNote, Loading, PageHeader, useAction, useGet, useToast } from '../ui.tsx'

interface Signer {
  role: string
  email: string
  name: string
  email2fa: boolean
}

type Order = 'preserved' | 'random'
const VARIABLES = Object.keys(MAIL_VARIABLES) as MailVariable[]

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

/** An input's aria-invalid and aria-describedby: its error when it has one, else its hint. */
function described(id: string, error: string | null, hint?: string) {
  return {
    'aria-invalid': error ? ('true' as const) : undefined,
    'aria-describedby': error ? `${id}-error` : hint,
  }
}

function FieldError({ id, text }: { id: string; text: string | null }) {
  return text ? (
    <p class="field-error" id={id} role="alert">
      {text}
    </p>
  ) : null
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
  const [moved, setMoved] = useState<{ role: string; to: 'up' | 'down' }>()
  const attempt = useRef<{ body: string; key: string } | undefined>(undefined)
  const inFlight = useRef(false)
  const lastText = useRef<'subject' | 'body'>('body')
  const send = useAction((request: object) => {
    const text = JSON.stringify(request)
    // A new key only for a new content: the same form sent again is the same submission.
    if (attempt.current?.body !== text) attempt.current = { body: text, key: newIdempotencyKey() }
    return call<{ id: string }>('POST', '/v1/submissions', request, { idempotencyKey: attempt.current.key })
  })
  const field = fieldOf(send.error)
  const errorAt = (path: string) => (field === path ? send.error!.message : null)
  const expiresError = expiresPast ? t.send_expires_past : errorAt('expires_at')

  useEffect(() => {
    // A moved block keeps the keyboard on its button (the other one once it reached an end).
    if (!moved) return
    const index = signers.findIndex((s) => s.role === moved.role)
    const wanted = document.getElementById(`move-${moved.to}-${index}`) as HTMLButtonElement | null
    const other = document.getElementById(`move-${moved.to === 'up' ? 'down' : 'up'}-${index}`)
    ;(wanted && !wanted.disabled ? wanted : other)?.focus()
  }, [moved])

  const update = (index: number, change: Partial<Signer>) => {
    setSigners((list) => list.map((s, i) => (i === index ? { ...s, ...change } : s)))
    if (field?.startsWith(`submitters[${index}]`)) send.clear()
  }
  const move = (index: number, to: 'up' | 'down') => {
    const target = to === 'up' ? index - 1 : index + 1
    setSigners((list) => {
      const next = [...list]
      ;[next[index], next[target]] = [next[target]!, next[index]!]
      return next
    })
    setMoved({ role: signers[index]!.role, to })
  }
  const setText = (which: 'subject' | 'body', value: string) => {
    ;(which === 'subject' ? setSubject : setBody)(value)
    if (field === `message.${which}`) send.clear()
  }
  const insert = (variable: MailVariable) => {
    const which = lastText.current
    const input = document.getElementById(`send-${which}`) as HTMLInputElement | HTMLTextAreaElement | null
    const value = which === 'subject' ? subject : body
    const token = `{{${variable}}}`
    const start = input?.selectionStart ?? value.length
    const end = input?.selectionEnd ?? value.length
    setText(which, value.slice(0, start) + token + value.slice(end))
    requestAnimationFrame(() => {
      input?.focus()
      input?.setSelectionRange(start + token.length, start + token.length)
    })
  }

  const request = () => {
    const message = {
      ...(subject.trim() ? { subject: subject.trim() } : {}),
      ...(body.trim() ? { body } : {}),
    }
    const expiresAt = isoOf(expires)
    return {
      template_id: template.id,
      submitters: signers.map((s) => ({
        role: s.role,
        email: s.email.trim(),
        ...(s.name.trim() ? { name: s.name.trim() } : {}),
        ...(s.email2fa ? { require_email_2fa: true } : {}),
      })),
      signing_order: order,
      send_email: sendEmail,
      ...(Object.keys(message).length > 0 ? { message } : {}),
      ...(expiresAt ? { expires_at: expiresAt } : {}),
    }
  }

  return (
    <form
      class="send-form"
      onSubmit={async (event) => {
        event.preventDefault()
        if (inFlight.current) return
        const expiresAt = isoOf(expires)
        if (expiresAt && new Date(expiresAt).getTime() <= Date.now()) {
          setExpiresPast(true)
          document.getElementById('send-expires')?.focus()
          return
        }
        inFlight.current = true
        const done = await send.run(request())
        inFlight.current = false
        if (!done) return
        toast(t.send_sent)
        navigate(`/submissions/${done.value.id}`)
      }}
    >
      <p class="muted">{t.send_intro}</p>
      <section class="panel" aria-labelledby="send-signers-title">
        <h2 id="send-signers-title">{t.send_signers}</h2>
        <ol class="send-signers">
          {signers.map((signer, i) => (
            <SignerBlock
              key={signer.role}
              signer={signer}
              index={i}
              count={signers.length}
              ordered={order === 'preserved'}
              errors={{ email: errorAt(`submitters[${i}].email`), name: errorAt(`submitters[${i}].name`) }}
              onChange={(change) => update(i, change)}
              onMove={(to) => move(i, to)}
            />
          ))}
        </ol>
        <fieldset class="send-choice">
          <legend>{t.send_order}</legend>
          {(['preserved', 'random'] as const).map((value) => (
            <label class="checkbox" key={value}>
              <input
                type="radio"
                name="signing-order"
                value={value}
                checked={order === value}
                aria-describedby={`send-order-${value}-hint`}
                onChange={() => setOrder(value)}
              />
              <span>
                {value === 'preserved' ? t.send_order_preserved : t.send_order_random}
                <span class="muted small block" id={`send-order-${value}-hint`}>
                  {value === 'preserved' ? t.send_order_preserved_hint : t.send_order_random_hint}
                </span>
              </span>
            </label>
          ))}
        </fieldset>
      </section>
      <section class="panel" aria-labelledby="send-message-title">
        <h2 id="send-message-title">{t.send_message}</h2>
        <p class="muted small">{t.send_message_hint}</p>
        <div class="send-message">
          <div class="send-message-fields">
            <label for="send-subject">{t.send_subject}</label>
            <input
              id="send-subject"
              maxLength={200}
              value={subject}
              {...described('send-subject', errorAt('message.subject'))}
              onFocus={() => (lastText.current = 'subject')}
              onInput={(e) => setText('subject', e.currentTarget.value)}
            />
            <FieldError id="send-subject-error" text={errorAt('message.subject')} />
            <label for="send-body">{t.send_body}</label>
            <textarea
              id="send-body"
              rows={6}
              maxLength={5000}
              value={body}
              {...described('send-body', errorAt('message.body'))}
              onFocus={() => (lastText.current = 'body')}
              onInput={(e) => setText('body', e.currentTarget.value)}
            />
            <FieldError id="send-body-error" text={errorAt('message.body')} />
          </div>
          <Variables t={t} onInsert={insert} />
        </div>
      </section>
      <section class="panel" aria-labelledby="send-options-title">
        <h2 id="send-options-title">{t.send_options}</h2>
        <label for="send-expires">{t.send_expires}</label>
        <input
          id="send-expires"
          type="datetime-local"
          value={expires}
          {...described('send-expires', expiresError, 'send-expires-hint')}
          onInput={(e) => {
            setExpires(e.currentTarget.value)
            setExpiresPast(false)
            if (field === 'expires_at') send.clear()
          }}
        />
        {expiresError ? (
          <FieldError id="send-expires-error" text={expiresError} />
        ) : (
          <p class="muted small" id="send-expires-hint">
            {t.send_expires_hint}
          </p>
        )}
        <label class="checkbox send-email">
          <input
            type="checkbox"
            checked={sendEmail}
            onChange={(e) => setSendEmail(e.currentTarget.checked)}
          />
          {t.send_email_on}
        </label>
        {sendEmail ? null : <p class="warning">{t.send_email_off_hint}</p>}
      </section>
      {field ? null : <ErrorNote error={send.error} />}
      <div class="send-actions">
        <button type="submit" class="button primary" disabled={send.busy}>
          {send.busy ? t.send_sending : t.send_submit}
        </button>
      </div>
    </form>
  )
}

function SignerBlock(props: {
  signer: Signer
  index: number
  count: number
  ordered: boolean
  errors: { email: string | null; name: string | null }
  onChange: (change: Partial<Signer>) => void
  onMove: (to: 'up' | 'down') => void
}) {
  const { t } = useTexts()
  const { signer, index: i, errors } = props
  return (
    <li class="send-signer">
      <fieldset>
        <legend>
          {props.ordered ? <span class="send-position">{i + 1}</span> : null}
          {signer.role}
        </legend>
        {props.ordered && props.count > 1 ? (
          <div class="send-move">
            {(['up', 'down'] as const).map((to) => (
              <button
                type="button"
                class="button small"
                key={to}
                id={`move-${to}-${i}`}
                disabled={to === 'up' ? i === 0 : i === props.count - 1}
                onClick={() => props.onMove(to)}
              >
                <span aria-hidden="true">{to === 'up' ? '↑' : '↓'}</span>{' '}
                {to === 'up' ? t.send_move_up : t.send_move_down}
                <span class="visually-hidden"> — {signer.role}</span>
              </button>
            ))}
          </div>
        ) : null}
        <div class="send-signer-fields">
          <div>
            <label for={`signer-${i}-email`}>{t.email}</label>
            <input
              id={`signer-${i}-email`}
              type="email"
              required
              maxLength={320}
              autoComplete="off"
              value={signer.email}
              {...described(`signer-${i}-email`, errors.email)}
              onInput={(e) => props.onChange({ email: e.currentTarget.value })}
            />
            <FieldError id={`signer-${i}-email-error`} text={errors.email} />
          </div>
          <div>
            <label for={`signer-${i}-name`}>{t.send_name_optional}</label>
            <input
              id={`signer-${i}-name`}
              maxLength={255}
              autoComplete="off"
              value={signer.name}
              {...described(`signer-${i}-name`, errors.name)}
              onInput={(e) => props.onChange({ name: e.currentTarget.value })}
            />
            <FieldError id={`signer-${i}-name-error`} text={errors.name} />
          </div>
        </div>
        <label class="checkbox">
          <input
            type="checkbox"
            checked={signer.email2fa}
            onChange={(e) => props.onChange({ email2fa: e.currentTarget.checked })}
          />
          {t.send_2fa}
        </label>
      </fieldset>
    </li>
  )
}

function Variables({ t, onInsert }: { t: Texts; onInsert: (variable: MailVariable) => void }) {
  return (
    <div class="send-variables">
      <h3 id="send-variables-title">{t.send_variables}</h3>
      <p class="muted small">{t.send_variables_hint}</p>
      <ul aria-labelledby="send-variables-title">
        {VARIABLES.map((variable) => {
          const meaning = t[`var_${variable.replace('.', '_')}` as keyof Texts]
          return (
            <li key={variable}>
              <button
                type="button"
                class="button small send-variable"
                aria-label={`${fill(t.send_insert, { variable: `{{${variable}}}` })}: ${meaning}`}
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => onInsert(variable)}
              >
                <code>{`{{${variable}}}`}</code>
              </button>{' '}
              <span class="muted small">{meaning}</span>
            </li>
          )
        })}
      </ul>
    </div>
  )
}
