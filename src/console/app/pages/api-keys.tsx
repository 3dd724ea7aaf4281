// API keys of the session's environment (admin): list, create (the secret shown once), revoke.
import { useState } from 'preact/hooks'
import { type Page, post } from '../api.ts'
import { formatDateTime } from '../format.ts'
import type { PageProps } from '../routes.tsx'
import { fill, useTexts } from '../texts.ts'
import type { ApiKey, CreatedApiKey } from '../types.ts'
import {
  Badge,
  Confirm,
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
  const create = useAction(() => post<CreatedApiKey>('/console/api/keys', {}))
  const env = (session.environment === 'live' ? t.env_live : t.env_test).toLocaleLowerCase(language)
  return (
    <>
      <PageHeader title={t.nav_keys}>
        <button
          type="button"
          class="button primary"
          disabled={create.busy}
          onClick={async () => {
            const done = await create.run()
            if (done) {
              setCreated(done.value)
              keys.reload()
            }
          }}
        >
          {fill(t.create_key, { env })}
        </button>
      </PageHeader>
      <p class="muted">{fill(t.keys_intro, { env })}</p>
      <ErrorNote error={create.error} />
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
                  <td>
                    <code>{key.prefix}…</code>
                  </td>
                  <td>
                    <Badge tone={key.environment === 'live' ? 'live' : 'test'}>
                      {key.environment === 'live' ? t.env_live : t.env_test}
                    </Badge>
                  </td>
                  <td>{formatDateTime(language, key.created_at)}</td>
                  <td>
                    {key.last_used_at ? (
                      formatDateTime(language, key.last_used_at)
                    ) : (
                      <span class="muted">{t.never}</span>
                    )}
                  </td>
                  <td>
                    {key.revoked_at ? (
                      <Badge tone="danger">
                        {fill(t.revoked_on, { date: formatDateTime(language, key.revoked_at) })}
                      </Badge>
                    ) : (
                      <Badge tone="success">{t.key_active}</Badge>
                    )}
                  </td>
                  <td class="actions">
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
