// API keys of the session's environment (admin): list, create with an optional name (the secret
// shown once), rename, revoke.
import { useState } from 'preact/hooks'
import { type Page, post } from '../api.ts'
import { formatDateTime } from '../format.ts'
import type { PageProps } from '../routes.tsx'
import { fill, useTexts } from '../texts.ts'
import type { ApiKey, CreatedApiKey } from '../types.ts'
import {
  Badge,
  Confirm,
  Dialog,
  Empty,
  ErrorNote,
  Loading,
  PageHeader,
  SecretDialog,
  useAction,
  useGet,
  useToast,
} from '../ui.tsx'

export function ApiKeys({ session }: PageProps) {
  const { t, language } = useTexts()
  const toast = useToast()
  const keys = useGet<Page<ApiKey>>('/console/api/keys')
  const [created, setCreated] = useState<CreatedApiKey>()
  const [revoking, setRevoking] = useState<ApiKey>()
  const [naming, setNaming] = useState<ApiKey | 'new'>()
  const env = (session.environment === 'live' ? t.env_live : t.env_test).toLocaleLowerCase(language)
  return (
    <>
      <PageHeader title={t.nav_keys}>
        <button type="button" class="button primary" onClick={() => setNaming('new')}>
          {fill(t.create_key, { env })}
        </button>
      </PageHeader>
      <p class="muted">{fill(t.keys_intro, { env })}</p>
      <ErrorNote error={keys.error} />
      {!keys.data && !keys.error ? <Loading /> : null}
      {keys.data && keys.data.data.length === 0 ? (
        <Empty title={t.keys_empty}>
          <p>{t.keys_empty_hint}</p>
        </Empty>
      ) : null}
      {keys.data && keys.data.data.length > 0 ? (
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">{t.nav_keys}</caption>
            <thead>
              <tr>
                <th scope="col">{t.key_name}</th>
                <th scope="col">{t.key_prefix}</th>
                <th scope="col">{t.environment}</th>
                <th scope="col">{t.created}</th>
                <th scope="col">{t.last_used}</th>
                <th scope="col">{t.status}</th>
                <th scope="col">
                  <span class="visually-hidden">{t.actions}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.data.data.map((key) => (
                <tr key={key.id}>
                  <td data-label={t.key_name}>{key.name ?? <span class="muted">{t.key_unnamed}</span>}</td>
                  <td data-label={t.key_prefix}>
                    <code>{key.prefix}…</code>
                  </td>
                  <td data-label={t.environment}>
                    <Badge tone={key.environment === 'live' ? 'live' : 'test'}>
                      {key.environment === 'live' ? t.env_live : t.env_test}
                    </Badge>
                  </td>
                  <td data-label={t.created}>{formatDateTime(language, key.created_at)}</td>
                  <td data-label={t.last_used}>
                    {key.last_used_at ? (
                      formatDateTime(language, key.last_used_at)
                    ) : (
                      <span class="muted">{t.never}</span>
                    )}
                  </td>
                  <td data-label={t.status}>
                    {key.revoked_at ? (
                      <Badge tone="danger">
                        {fill(t.revoked_on, { date: formatDateTime(language, key.revoked_at) })}
                      </Badge>
                    ) : (
                      <Badge tone="success">{t.key_active}</Badge>
                    )}
                  </td>
                  <td class="actions">
                    <button
                      type="button"
                      class="button small"
                      aria-label={`${t.rename} ${key.name ?? key.prefix}`}
                      onClick={() => setNaming(key)}
                    >
                      {t.rename}
                    </button>
                    {key.revoked_at ? null : (
                      <button
                        type="button"
                        class="button small danger"
                        aria-label={`${t.revoke} ${key.prefix}`}
                        onClick={() => setRevoking(key)}
                      >
                        {t.revoke}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {naming ? (
        <NameKey
          apiKey={naming === 'new' ? undefined : naming}
          title={naming === 'new' ? fill(t.create_key, { env }) : t.rename_key}
          onClose={() => setNaming(undefined)}
          onDone={(key) => {
            setNaming(undefined)
            if ('secret' in key) setCreated(key)
            else toast(t.key_renamed)
            keys.reload()
          }}
        />
      ) : null}
      {created?.secret ? (
        <SecretDialog title={t.key_created} secret={created.secret} onClose={() => setCreated(undefined)} />
      ) : null}
      {revoking ? (
        <Confirm
          title={t.revoke_key_title}
          body={<p>{fill(t.revoke_key_body, { prefix: revoking.prefix })}</p>}
          confirm={t.revoke}
          danger
          onClose={() => setRevoking(undefined)}
          onConfirm={async () => {
            await post(`/console/api/keys/${revoking.id}/revoke`)
            toast(t.key_revoked)
            keys.reload()
            return true
          }}
        />
      ) : null}
    </>
  )
}

/** The name of a new key (then made), or of an existing one (then renamed); blank for none. */
function NameKey(props: {
  apiKey?: ApiKey
  title: string
  onClose: () => void
  onDone: (key: ApiKey | CreatedApiKey) => void
}) {
  const { t } = useTexts()
  const [name, setName] = useState(props.apiKey?.name ?? '')
  const save = useAction(() =>
    props.apiKey
      ? post<ApiKey>(`/console/api/keys/${props.apiKey.id}/name`, { name: name.trim() || null })
      : post<CreatedApiKey>('/console/api/keys', name.trim() ? { name: name.trim() } : {}),
  )
  return (
    <Dialog title={props.title} onClose={props.onClose}>
      <form
        onSubmit={async (e) => {
          e.preventDefault()
          const done = await save.run()
          if (done) props.onDone(done.value)
        }}
      >
        <label for="key-name">{t.key_name_optional}</label>
        <input
          id="key-name"
          maxLength={100}
          placeholder={t.key_name_placeholder}
          aria-describedby="key-name-hint"
          value={name}
          onInput={(e) => setName(e.currentTarget.value)}
        />
        <p id="key-name-hint" class="small muted">
          {t.key_name_hint}
        </p>
        <ErrorNote error={save.error} />
        <div class="dialog-actions">
          <button type="button" class="button" onClick={props.onClose}>
            {t.cancel}
          </button>
          <button type="submit" class="button primary" disabled={save.busy}>
            {props.apiKey ? t.save : t.create}
          </button>
        </div>
      </form>
    </Dialog>
  )
}
