// The console's root: language, session (signed in or not), the test/live switch, and the page of the
// current path inside the shell.
import { useEffect, useState } from 'preact/hooks'
import { ApiFailure, get, post, setCsrfToken, whenSessionLost } from './api.ts'
import { currentPath, navigate, usePath } from './router.ts'
import { PageFor } from './routes.tsx'
import { Shell } from './shell.tsx'
import { SignIn } from './sign-in.tsx'
import { initialLanguage, LANGUAGES, type Language, LanguageContext, rememberLanguage } from './texts.ts'
import type { Environment, Session } from './types.ts'
import { ErrorNote, Loading, Toasts } from './ui.tsx'

type SessionState =
  | { kind: 'loading' }
  | { kind: 'signed_out' }
  | { kind: 'failed'; error: ApiFailure }
  | { kind: 'in'; session: Session }

export function App() {
  const [language, setLanguage] = useState<Language>(initialLanguage)
  const [state, setState] = useState<SessionState>({ kind: 'loading' })
  const path = usePath()

  const accept = (session: Session) => {
    setCsrfToken(session.csrf_token)
    setState({ kind: 'in', session })
  }
  useEffect(() => {
    document.documentElement.lang = language
    whenSessionLost(() => setState({ kind: 'signed_out' }))
    get<Session>('/console/api/session').then(accept, (error: unknown) => {
      if (error instanceof ApiFailure && error.status === 401) setState({ kind: 'signed_out' })
      else setState({ kind: 'failed', error: error as ApiFailure })
    })
  }, [])
  useEffect(() => {
    if (state.kind === 'in' && currentPath() === '/sign-in') navigate('/templates', true)
    if (state.kind === 'in' && currentPath() === '/') navigate('/templates', true)
  }, [state.kind, path])

  const chooseLanguage = (next: Language) => {
    rememberLanguage(next)
    setLanguage(next)
  }
  const texts = { language, t: LANGUAGES[language] }
  const switchEnvironment = async (environment: Environment) =>
    accept(await post<Session>('/console/api/session/environment', { environment }))
  const signOut = async () => {
    await post('/console/api/sign_out')
    setCsrfToken('')
    setState({ kind: 'signed_out' })
    navigate('/sign-in')
  }

  let body = null
  if (state.kind === 'loading')
    body = (
      <main class="centered">
        <Loading />
      </main>
    )
  else if (state.kind === 'failed')
    body = (
      <main class="centered">
        <ErrorNote error={state.error} />
      </main>
    )
  else if (state.kind === 'signed_out') body = <SignIn language={language} onLanguage={chooseLanguage} />
  else {
    body = (
      <Shell
        session={state.session}
        path={path}
        language={language}
        onLanguage={chooseLanguage}
        onEnvironment={switchEnvironment}
        onSignOut={signOut}
      >
        {/* key: switching test/live remounts the page, so it reads that environment's data */}
        <PageFor key={`${state.session.environment}:${path}`} path={path} session={state.session} />
      </Shell>
    )
  }
  return (
    <LanguageContext.Provider value={texts}>
      <Toasts>{body}</Toasts>
    </LanguageContext.Provider>
  )
}
