// An endpoint's health in one badge: disabled, failing (with the run of failures) or healthy.
import { fill, useTexts } from '../texts.ts'
import type { WebhookHealth } from '../types.ts'
import { Badge } from '../ui.tsx'

export function HealthBadge({ health }: { health: WebhookHealth }) {
  const { t } = useTexts()
  if (health.disabled) return <Badge tone="danger">{t.health_disabled}</Badge>
  if (health.failing) {
    return <Badge tone="danger">{fill(t.health_failing, { n: health.consecutive_failures })}</Badge>
  }
  return <Badge tone="success">{t.health_ok}</Badge>
}
