// The frame around every page: skip link, top bar (account, the test/live switch, the member, sign
// out, language), side navigation. Live mode tints the whole console (body class) and says so in
// words, so test and live are never confused. Below 768 px the navigation would push every page
// below a screenful of links: it folds behind a "Menu" button instead, and folds again once a link
// is followed.
import type { ComponentChildren } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import { onLinkClick } from './router.ts'
import { type Language, type Texts, useTexts } from './texts.ts'
import type { Environment, Session } from './types.ts'
import { ErrorNote, useAction } from './ui.tsx'

interface NavItem {
  to: string
  label: (t: Texts) => string
  adminOnly?: boolean
}

const NAV: { group?: (t: Texts) => string; items: NavItem[] }[] = [
  {
    items: [
      { to: '/templates', label: (t) => t.nav_templates },
      { to: '/submissions', label: (t) => t.nav_submissions },
      // Verification (#36)
      { to: '/verify', label: (t) => t.nav_verify },
    ],
  },
  {
    group: (t) => t.nav_developers,
    items: [
      { to: '/developers/keys', label: (t) => t.nav_keys, adminOnly: true },
      { to: '/developers/webhooks', label: (t) => t.nav_webhooks },
      { to: '/developers/logs', label: (t) => t.nav_logs },
    ],
  },
  {
    items: [
      { to: '/usage', label: (t) => t.nav_usage },
      { to: '/members', label: (t) => t.nav_members, adminOnly: true },
      { to: '/retention', label: (t) => t.nav_retention },
      // Personal data (#36)
      { to: '/legal-holds', label: (t) => t.nav_legal_holds },
      { to: '/erasures', label: (t) => t.nav_erasure, adminOnly: true },
    ],
  },
]

export function Link(props: {
  to: string
  class?: string
  children: ComponentChildren
  current?: boolean
  /** The accessible name, when the words shown need what the link does beside them. */
  label?: string
}) {
  return (
    <a
      href={`/console${props.to}`}
      class={props.class}
      aria-label={props.label}
      title={props.label}
      aria-current={props.current ? 'page' : undefined}
      onClick={(e) => onLinkClick(e, props.to)}
    >
      {props.children}
    </a>
  )
}

export function LanguagePicker(props: { language: Language; onLanguage: (l: Language) => void }) {
  const { t } = useTexts()
  return (
    <span class="language-picker">
      <label for="language">{t.language}</label>
      <select
        id="language"
        value={props.language}
        onChange={(e) => props.onLanguage(e.currentTarget.value as Language)}
      >
        <option value="en" lang="en">
          English
        </option>
        <option value="fr" lang="fr">
          Français
        </option>
      </select>
    </span>
  )
}

function EnvironmentSwitch(props: {
  environment: Environment
  onEnvironment: (e: Environment) => Promise<void>
}) {
  const { t } = useTexts()
  const action = useAction(props.onEnvironment)
  return (
    <div class="env-switch-wrap">
      <fieldset class="env-switch">
        <legend class="visually-hidden">{t.environment}</legend>
        {(['test', 'live'] as const).map((env) => (
          <button
            key={env}
            type="button"
            class={`env-option env-${env}`}
            aria-pressed={props.environment === env}
            disabled={action.busy}
            onClick={() => props.environment !== env && action.run(env)}
          >
            {env === 'test' ? t.env_test : t.env_live}
          </button>
        ))}
      </fieldset>
      <ErrorNote error={action.error} />
    </div>
  )
}

export function Shell(props: {
  session: Session
  path: string
  language: Language
  onLanguage: (l: Language) => void
  onEnvironment: (e: Environment) => Promise<void>
  onSignOut: () => Promise<void>
  children: ComponentChildren
}) {
  const { t } = useTexts()
  const { session } = props
  const live = session.environment === 'live'
  const signOut = useAction(props.onSignOut)
  useEffect(() => {
    document.body.classList.toggle('env-live', live)
    return () => document.body.classList.remove('env-live')
  }, [live])
  const isAdmin = session.member.role === 'admin'
  const [menuOpen, setMenuOpen] = useState(false)
  useEffect(() => setMenuOpen(false), [props.path])
  return (
    <div class="layout">
      <a class="skip-link" href="#main">
        {t.skip_to_content}
      </a>
      <header class="masthead">
        <div class="topbar">
          <button
            type="button"
            class="button small menu-button"
            aria-expanded={menuOpen}
            aria-controls="sidenav"
            onClick={() => setMenuOpen(!menuOpen)}
          >
            {t.menu}
          </button>
          <div class="topbar-account">
            <span class="brand-mark" aria-hidden="true">
              P
            </span>
            <span class="account-name">{session.account.name}</span>
          </div>
          <EnvironmentSwitch environment={session.environment} onEnvironment={props.onEnvironment} />
          <div class="topbar-member">
            <LanguagePicker language={props.language} onLanguage={props.onLanguage} />
            <span class="member-email" title={t[`role_${session.member.role}`]}>
              {session.member.email}
            </span>
            <button
              type="button"
              class="button small ghost"
              disabled={signOut.busy}
              onClick={() => signOut.run()}
            >
              {t.sign_out}
            </button>
          </div>
        </div>
        {live ? (
          <p class="live-banner">
            <strong>{t.env_live_banner_title}</strong> {t.env_live_banner}
          </p>
        ) : (
          <p class="test-banner">{t.env_test_banner}</p>
        )}
      </header>
      <div class="body">
        <nav id="sidenav" class={menuOpen ? 'sidenav open' : 'sidenav'} aria-label={t.nav_label}>
          {NAV.map((section, i) => {
            const items = section.items.filter((item) => isAdmin || !item.adminOnly)
            return (
              <div class="nav-section" key={i}>
                {section.group ? <p class="nav-group">{section.group(t)}</p> : null}
                <ul>
                  {items.map((item) => (
                    <li key={item.to}>
                      <Link
                        to={item.to}
                        current={props.path === item.to || props.path.startsWith(`${item.to}/`)}
                      >
                        {item.label(t)}
                      </Link>
                    </li>
                  ))}
                </ul>
              </div>
            )
          })}
        </nav>
        <main id="main" class="content" tabIndex={-1}>
          <ErrorNote error={signOut.error} />
          {props.children}
        </main>
      </div>
    </div>
  )
}
