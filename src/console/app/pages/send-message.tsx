// The Send page's message: subject and body, and the mail variables, each inserted with a button at
// the caret of the text last focused (docs/console.md "Sending from a template").
import { useRef } from 'preact/hooks'
import { MAIL_VARIABLES, type MailVariable } from '../../../mail/messages/variables.ts'
import { fill, type Texts, useTexts } from '../texts.ts'
import { described, FieldError } from './send-field-error.tsx'

const VARIABLES = Object.keys(MAIL_VARIABLES) as MailVariable[]

export type MessagePart = 'subject' | 'body'

export function MessageSection(props: {
  subject: string
  body: string
  onText: (which: MessagePart, value: string) => void
  /** The API's refusal of a value (`message.body`), or null. */
  errorAt: (path: string) => string | null
}) {
  const { t } = useTexts()
  const lastText = useRef<MessagePart>('body')
  const insert = (variable: MailVariable) => {
    const which = lastText.current
    const input = document.getElementById(`send-${which}`) as HTMLInputElement | HTMLTextAreaElement | null
    const value = which === 'subject' ? props.subject : props.body
    const token = `{{${variable}}}`
    const start = input?.selectionStart ?? value.length
    const end = input?.selectionEnd ?? value.length
    props.onText(which, value.slice(0, start) + token + value.slice(end))
    requestAnimationFrame(() => {
      input?.focus()
      input?.setSelectionRange(start + token.length, start + token.length)
    })
  }
  const subjectError = props.errorAt('message.subject')
  const bodyError = props.errorAt('message.body')
  return (
    <section class="panel" aria-labelledby="send-message-title">
      <h2 id="send-message-title">{t.send_message}</h2>
      <p class="muted small">{t.send_message_hint}</p>
      <div class="send-message">
        <div class="send-message-fields">
          <label for="send-subject">{t.send_subject}</label>
          <input
            id="send-subject"
            maxLength={200}
            value={props.subject}
            {...described('send-subject', subjectError)}
            onFocus={() => (lastText.current = 'subject')}
            onInput={(e) => props.onText('subject', e.currentTarget.value)}
          />
          <FieldError id="send-subject-error" text={subjectError} />
          <label for="send-body">{t.send_body}</label>
          <textarea
            id="send-body"
            rows={6}
            maxLength={5000}
            value={props.body}
            {...described('send-body', bodyError)}
            onFocus={() => (lastText.current = 'body')}
            onInput={(e) => props.onText('body', e.currentTarget.value)}
          />
          <FieldError id="send-body-error" text={bodyError} />
        </div>
        <Variables t={t} onInsert={insert} />
      </div>
    </section>
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
