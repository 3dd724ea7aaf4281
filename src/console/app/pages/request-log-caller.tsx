// The request log's caller filter as a choice, not an id to type (issue #33): everyone, API keys
// only, the console only, or one caller — a key by its name and prefix, a member by their address.
// An admin's list comes from the console API (keys and members are an admin's); anyone else can pick
// themself, and any caller clicked in a log row joins the list, so a row's filter always shows.
import type { Page } from '../api.ts'
import { fill, useTexts } from '../texts.ts'
import type { ApiKey, Member, Session } from '../types.ts'
import { useGet } from '../ui.tsx'

/** `''` (everyone), a source (`api_key`, `console`), or one caller's id (`key_…`, `mem_…`). */
export type CallerChoice = string

export function CallerSelect(props: {
  value: CallerChoice
  session: Session
  /** Callers met in the log (id → how the row names them), for those the lists do not hold. */
  seen: Record<string, string>
  onChange: (choice: CallerChoice) => void
}) {
  const { t } = useTexts()
  const admin = props.session.member.role === 'admin'
  const keys = useGet<Page<ApiKey>>(admin ? '/console/api/keys' : null).data?.data ?? []
  const listed = useGet<Page<Member>>(admin ? '/console/api/members' : null).data?.data
  const me = props.session.member
  const members = listed ?? [{ id: me.id, email: me.email }]
  const known = new Set<string>([...keys.map((k) => k.id), ...members.map((m) => m.id)])
  const others = Object.entries(props.seen).filter(([id]) => !known.has(id))
  return (
    <span class="filter">
      <label for="log-caller">{t.caller}</label>
      <select id="log-caller" value={props.value} onChange={(e) => props.onChange(e.currentTarget.value)}>
        <option value="">{t.caller_all}</option>
        <option value="api_key">{t.caller_api_keys}</option>
        <option value="console">{t.caller_console}</option>
        {keys.length > 0 ? (
          <optgroup label={t.nav_keys}>
            {keys.map((key) => (
              <option key={key.id} value={key.id}>
                {fill(key.revoked_at ? t.caller_key_revoked : t.caller_key, {
                  name: key.name ?? t.key_unnamed,
                  prefix: key.prefix,
                })}
              </option>
            ))}
          </optgroup>
        ) : null}
        <optgroup label={t.nav_members}>
          {members.map((member) => (
            <option key={member.id} value={member.id}>
              {member.id === me.id ? `${member.email} (${t.you})` : member.email}
            </option>
          ))}
        </optgroup>
        {others.length > 0 ? (
          <optgroup label={t.caller_others}>
            {others.map(([id, label]) => (
              <option key={id} value={id}>
                {label}
              </option>
            ))}
          </optgroup>
        ) : null}
      </select>
    </span>
  )
}
