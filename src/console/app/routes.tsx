// The console's route table: path → page. The template editor (editor/) is `/templates/new`,
// loaded lazily so its weight never counts in the first load; so are "Send to many" and its job
// page (bulk-send/), which carry the CSV parser.
import type { FunctionComponent } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import { ApiKeys } from './pages/api-keys.tsx'
import { ErasureReport, ErasureRequest } from './pages/erasure.tsx'
import { LegalHolds } from './pages/legal-holds.tsx'
import { Members } from './pages/members.tsx'
import { RequestLogs } from './pages/request-logs.tsx'
import { Retention } from './pages/retention.tsx'
import { SendTemplate } from './pages/send.tsx'
import { SubmissionDetail } from './pages/submission-detail.tsx'
import { Submissions } from './pages/submissions.tsx'
import { Templates } from './pages/templates.tsx'
import { UsagePage } from './pages/usage.tsx'
import { VerifyPdf } from './pages/verify.tsx'
import { WebhookDetail } from './pages/webhook-detail.tsx'
import { Webhooks } from './pages/webhooks.tsx'
import { match } from './router.ts'
import { useTexts } from './texts.ts'
import type { Session } from './types.ts'
import { asFailure, Empty, ErrorNote, Loading, PageHeader } from './ui.tsx'

export interface PageProps {
  params: Record<string, string>
  session: Session
}

type Loader = () => Promise<FunctionComponent<PageProps>>

const ROUTES: {
  pattern: string
  page: FunctionComponent<PageProps> | Loader
  lazy?: true
  adminOnly?: true
}[] = [
  { pattern: '/templates', page: Templates },
  {
    pattern: '/templates/new',
    page: () => import('./editor/editor.tsx').then((m) => m.TemplateEditor),
    lazy: true,
  },
  { pattern: '/templates/:id/send', page: SendTemplate },
  {
    pattern: '/templates/:id/send-many',
    page: () => import('./bulk-send/send-many.tsx').then((m) => m.SendMany),
    lazy: true,
  },
  {
    pattern: '/bulk-sends/:id',
    page: () => import('./bulk-send/job-page.tsx').then((m) => m.BulkSendPage),
    lazy: true,
  },
  { pattern: '/submissions', page: Submissions },
  { pattern: '/submissions/:id', page: SubmissionDetail },
  // Verification (#36)
  { pattern: '/verify', page: VerifyPdf },
  { pattern: '/developers/keys', page: ApiKeys, adminOnly: true },
  { pattern: '/developers/webhooks', page: Webhooks },
  { pattern: '/developers/webhooks/:id', page: WebhookDetail },
  { pattern: '/developers/logs', page: RequestLogs },
  { pattern: '/usage', page: UsagePage },
  { pattern: '/members', page: Members, adminOnly: true },
  // Personal data (#36): every member reads the policy, an admin changes it.
  { pattern: '/retention', page: Retention },
  // Personal data (#36): every member reads the holds, an admin places and releases them and erases.
  { pattern: '/legal-holds', page: LegalHolds },
  { pattern: '/erasures', page: ErasureRequest, adminOnly: true },
  { pattern: '/erasures/:id', page: ErasureReport, adminOnly: true },
]

function Lazy(props: PageProps & { load: Loader }) {
  const [Page, setPage] = useState<FunctionComponent<PageProps>>()
  const [error, setError] = useState<unknown>()
  useEffect(() => {
    props.load().then((component) => setPage(() => component), setError)
  }, [])
  if (error) return <ErrorNote error={asFailure(error)} />
  return Page ? <Page {...props} /> : <Loading />
}

export function PageFor({ path, session }: { path: string; session: Session }) {
  const { t } = useTexts()
  useEffect(() => {
    // A new page: move focus to its heading so keyboard and screen-reader users start there.
    const heading = document.getElementById('page-title')
    if (heading && document.activeElement !== document.body) heading.focus()
    document.title = `${heading?.textContent ?? t.console} · Paraph`
  }, [])
  for (const route of ROUTES) {
    const params = match(route.pattern, path)
    if (!params) continue
    if (route.adminOnly && session.member.role !== 'admin') {
      return (
        <>
          <PageHeader title={t.admin_only_title} />
          <Empty title={t.admin_only} />
        </>
      )
    }
    if (route.lazy) return <Lazy params={params} session={session} load={route.page as Loader} />
    const Page = route.page as FunctionComponent<PageProps>
    return <Page params={params} session={session} />
  }
  return (
    <>
      <PageHeader title={t.not_found_title} />
      <Empty title={t.not_found} />
    </>
  )
}
