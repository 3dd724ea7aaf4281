// /console/sign-in: the address → POST /console/api/sign_in_links → "check your mail". The answer is
// the same whether or not the address is a member (no account enumeration).
import { useEffect, useRef, useState } from 'preact/hooks'
import { post } from './api.ts'
import { LanguagePicker } from './shell.tsx'
import { fill, type Language, useTexts } from './texts.ts'
import { ErrorNote, useAction } from './ui.tsx'

export function SignIn(props: { language: Language; onLanguage: (l: Language) => void }) {
  const { t } = useTexts()
  const [email, setEmail] = useState('')
  const [sentTo, setSentTo] = useState<string>()
  const send = useAction((address: string) =>
    post<{ email: string }>('/console/api/sign_in_links', { email: address, language: props.language }),
  )
  const heading = useRef<HTMLHeadingElement>(null)
  useEffect(() => {
    document.title = `${t.sign_in_title} · Paraph`
    heading.current?.focus()
  }, [sentTo])
  return (
    <main class="sign-in" id="main">
      <div class="sign-in-card">
        <p class="brand" aria-hidden="true">
          <span class="brand-mark">P</span> Paraph
        </p>
        {sentTo ? (
          <>
            <h1 tabIndex={-1} ref={heading}>
              {t.check_mail_title}
            </h1>
            <p>{fill(t.check_mail_body, { email: sentTo })}</p>
            <p class="muted">{t.check_mail_hint}</p>
            <button type="button" class="button" onClick={() => setSentTo(undefined)}>
              {t.use_other_address}
            </button>
          </>
        ) : (
          <>
            <h1 tabIndex={-1} ref={heading}>
              {t.sign_in_title}
            </h1>
            <p class="muted">{t.sign_in_intro}</p>
            <form
              onSubmit={async (event) => {
                event.preventDefault()
                const done = await send.run(email.trim())
                if (done) setSentTo(done.value.email)
              }}
            >
              <label for="sign-in-email">{t.email}</label>
              <input
                id="sign-in-email"
                type="text"
                inputMode="email"
                spellcheck={false}
                autoCapitalize="off"
                autocomplete="email"
                required
                value={email}
                aria-describedby={send.error ? 'sign-in-error' : undefined}
                onInput={(e) => setEmail(e.currentTarget.value)}
              />
              <ErrorNote error={send.error} id="sign-in-error" />
              <button type="submit" class="button primary block" disabled={send.busy}>
                {send.busy ? t.sending : t.send_link}
              </button>
            </form>
          </>
        )}
        <div class="sign-in-footer">
          <LanguagePicker language={props.language} onLanguage={props.onLanguage} />
        </div>
      </div>
    </main>
  )
}
