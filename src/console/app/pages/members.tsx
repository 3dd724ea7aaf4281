// Members (admin): list, add (e-mail + role), change a role, remove. Removing or demoting the last
// admin answers 409 last_admin, shown beside that member.
import { useState } from 'preact/hooks'
import { type Page, post } from '../api.ts'
import { formatDateTime } from '../format.ts'
import type { PageProps } from '../routes.tsx'
import { fill, useTexts } from '../texts.ts'
import type { Member, Role } from '../types.ts'
import { Confirm, ErrorNote, Loading, PageHeader, useAction, useGet, useToast } from '../ui.tsx'

export function Members({ session }: PageProps) {
  const { t } = useTexts()
  const toast = useToast()
  const members = useGet<Page<Member>>('/console/api/members')
  const [email, setEmail] = useState('')
  const [role, setRole] = useState<Role>('editor')
  const [removing, setRemoving] = useState<Member>()
  const add = useAction(() => post<Member>('/console/api/members', { email: email.trim(), role }))
  return (
    <>
      <PageHeader title={t.nav_members} />
      <form
        class="panel add-member"
        aria-labelledby="add-member-title"
        onSubmit={async (e) => {
          e.preventDefault()
          if (await add.run()) {
            toast(fill(t.member_added, { email: email.trim() }))
            setEmail('')
            members.reload()
          }
        }}
      >
        <h2 id="add-member-title">{t.add_member}</h2>
        <div class="inline-fields">
          <span class="filter grow">
            <label for="member-email">{t.email}</label>
            <input
              id="member-email"
              type="text"
              inputMode="email"
              spellcheck={false}
              autoCapitalize="off"
              required
              value={email}
              onInput={(e) => setEmail(e.currentTarget.value)}
            />
          </span>
          <span class="filter">
            <label for="member-role">{t.role}</label>
            <select id="member-role" value={role} onChange={(e) => setRole(e.currentTarget.value as Role)}>
              <option value="editor">{t.role_editor}</option>
              <option value="admin">{t.role_admin}</option>
            </select>
          </span>
          <button type="submit" class="button primary" disabled={add.busy}>
            {t.add}
          </button>
        </div>
        <p class="muted small">{t.roles_help}</p>
        <ErrorNote error={add.error} />
      </form>
      <ErrorNote error={members.error} />
      {!members.data && !members.error ? <Loading /> : null}
      {members.data ? (
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">{t.nav_members}</caption>
            <thead>
              <tr>
                <th scope="col">{t.email}</th>
                <th scope="col">{t.role}</th>
                <th scope="col">{t.last_sign_in}</th>
                <th scope="col">
                  <span class="visually-hidden">{t.actions}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {members.data.data.map((member) => (
                <MemberRow
                  key={member.id}
                  member={member}
                  self={member.id === session.member.id}
                  onChanged={() => members.reload()}
                  onRemove={() => setRemoving(member)}
                />
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {removing ? (
        <Confirm
          title={t.remove_member_title}
          body={<p>{fill(t.remove_member_body, { email: removing.email })}</p>}
          confirm={t.remove}
          danger
          onClose={() => setRemoving(undefined)}
          onConfirm={async () => {
            await post(`/console/api/members/${removing.id}/remove`)
            toast(fill(t.member_removed, { email: removing.email }))
            members.reload()
            return true
          }}
        />
      ) : null}
    </>
  )
}

function MemberRow(props: { member: Member; self: boolean; onChanged: () => void; onRemove: () => void }) {
  const { t, language } = useTexts()
  const { member } = props
  const change = useAction((role: Role) => post(`/console/api/members/${member.id}/role`, { role }))
  const selectId = `role-${member.id}`
  return (
    <tr>
      <td data-label={t.email}>
        {member.email} {props.self ? <span class="muted">({t.you})</span> : null}
      </td>
      <td data-label={t.role}>
        <label for={selectId} class="visually-hidden">
          {fill(t.role_of, { email: member.email })}
        </label>
        <select
          id={selectId}
          value={member.role}
          disabled={change.busy}
          onChange={async (e) => {
            const select = e.currentTarget
            if (await change.run(select.value as Role)) props.onChanged()
            else select.value = member.role
          }}
        >
          <option value="editor">{t.role_editor}</option>
          <option value="admin">{t.role_admin}</option>
        </select>
        <ErrorNote error={change.error} />
      </td>
      <td data-label={t.last_sign_in}>
        {member.last_sign_in_at ? (
          formatDateTime(language, member.last_sign_in_at)
        ) : (
          <span class="muted">{t.never}</span>
        )}
      </td>
      <td class="actions">
        <button
          type="button"
          class="button small danger"
          aria-label={`${t.remove} ${member.email}`}
          onClick={props.onRemove}
        >
          {t.remove}
        </button>
      </td>
    </tr>
  )
}
