// An endpoint's state in one badge: deactivated (deleted), disabled, failing (with the run of
// failures), its last attempt failed, no delivery yet, or healthy.
import { fill, useTexts } from '../texts.ts'
import type { WebhookEndpoint } from '../types.ts'
import { Badge } from '../ui.tsx'

export function HealthBadge({ endpoint }: { endpoint: WebhookEndpoint }) {
  const { t } = useTexts()
  const { health } = endpoint
  if (!endpoint.active) return <Badge tone="neutral">{t.health_deactivated}</Badge>
  if (health.disabled) return <Badge tone="danger">{t.health_disabled}</Badge>
  if (health.failing) {
    return <Badge tone="danger">{fill(t.health_failing, { n: health.consecutive_failures })}</Badge>
  }
  if (health.consecutive_failures > 0) {
    return <Badge tone="warning">{fill(t.health_last_failed, { n: health.consecutive_failures })}</Badge>
  }
  if (!health.last_success_at) return <Badge tone="neutral">{t.health_no_delivery}</Badge>
  return <Badge tone="success">{t.health_ok}</Badge>
}
