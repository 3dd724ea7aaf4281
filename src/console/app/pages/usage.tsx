// Usage of a month: totals (signatures, billable, tier, amount in its currency) and signatures per
// day as an SVG bar chart, with the same figures as a table for screen readers and keyboards.
import { useState } from 'preact/hooks'
import { query } from '../api.ts'
import { formatMoney, formatNumber } from '../format.ts'
import type { PageProps } from '../routes.tsx'
import { fill, useTexts } from '../texts.ts'
import type { Usage } from '../types.ts'
import { ErrorNote, Loading, PageHeader, useGet } from '../ui.tsx'

const thisMonth = () => new Date().toISOString().slice(0, 7)

export function UsagePage({ session }: PageProps) {
  const { t, language } = useTexts()
  const [month, setMonth] = useState(thisMonth)
  const usage = useGet<Usage>(`/v1/usage${query({ month })}`)
  const u = usage.data
  return (
    <>
      <PageHeader title={t.nav_usage} />
      <div class="filters">
        <label class="inline-label" for="usage-month">
          {t.month}
        </label>
        <input
          id="usage-month"
          type="month"
          value={month}
          max={thisMonth()}
          onChange={(e) => e.currentTarget.value && setMonth(e.currentTarget.value)}
        />
      </div>
      {session.environment === 'test' ? <p class="muted">{t.usage_test_note}</p> : null}
      <ErrorNote error={usage.error} />
      {!u && !usage.error ? <Loading /> : null}
      {u ? (
        <>
          <dl class="totals">
            <div>
              <dt>{t.signatures}</dt>
              <dd>{formatNumber(language, u.signatures)}</dd>
            </div>
            <div>
              <dt>{t.billable}</dt>
              <dd>{u.billable ? t.yes : t.no}</dd>
            </div>
            <div>
              <dt>{t.tier}</dt>
              <dd>
                {fill(t.per_signature, { amount: formatMoney(language, u.tier.unit_amount, u.currency) })}
                <span class="tier-price">
                  {u.tier.up_to === null
                    ? t.tier_unlimited
                    : fill(t.tier_up_to, { n: formatNumber(language, u.tier.up_to) })}
                </span>
              </dd>
            </div>
            <div>
              <dt>{t.amount}</dt>
              <dd>{formatMoney(language, u.amount, u.currency)}</dd>
            </div>
          </dl>
          <DayChart usage={u} />
        </>
      ) : null}
    </>
  )
}

function DayChart({ usage }: { usage: Usage }) {
  const { t, language } = useTexts()
  const days = usage.days
  const max = Math.max(1, ...days.map((d) => d.signatures))
  const width = 720
  const height = 200
  // The value axis: 0, the middle and the day with the most, each with a grid line; whole numbers
  // only (the middle is left out when it would not be one).
  const axis = 40
  const ticks = [...new Set([0, max % 2 === 0 ? max / 2 : 0, max])]
  const y = (value: number) => height - (value / max) * (height - 10)
  const bar = (width - axis) / Math.max(days.length, 1)
  const dayFormat = new Intl.DateTimeFormat(language, { day: 'numeric', month: 'short', timeZone: 'UTC' })
  const total = days.reduce((sum, d) => sum + d.signatures, 0)
  return (
    <section class="panel" aria-labelledby="chart-title">
      <h2 id="chart-title">{t.per_day}</h2>
      {total === 0 ? <p class="chart-empty">{t.usage_none}</p> : null}
      <svg
        class="chart"
        viewBox={`0 0 ${width} ${height + 20}`}
        role="img"
        aria-label={fill(t.chart_label, {
          month: usage.month,
          n: formatNumber(language, total),
          max: formatNumber(language, max),
        })}
      >
        {ticks.map((tick) => (
          <g key={tick}>
            <line
              x1={axis}
              y1={y(tick)}
              x2={width}
              y2={y(tick)}
              class={tick === 0 ? 'chart-axis' : 'chart-grid'}
            />
            <text x={axis - 6} y={y(tick) + 4} class="chart-label" text-anchor="end">
              {formatNumber(language, tick)}
            </text>
          </g>
        ))}
        {days.map((d, i) => {
          const h = height - y(d.signatures)
          const x = axis + i * bar
          return (
            <g key={d.date}>
              <rect x={x + 2} y={height - h} width={Math.max(bar - 4, 1)} height={h} class="chart-bar">
                <title>{`${dayFormat.format(new Date(d.date))}: ${d.signatures}`}</title>
              </rect>
              {i % 5 === 0 ? (
                <text x={x + bar / 2} y={height + 15} class="chart-label" text-anchor="middle">
                  {Number(d.date.slice(8))}
                </text>
              ) : null}
            </g>
          )
        })}
      </svg>
      <details>
        <summary>{t.show_table}</summary>
        <table class="compact">
          <caption class="visually-hidden">{t.per_day}</caption>
          <thead>
            <tr>
              <th scope="col">{t.day}</th>
              <th scope="col">{t.signatures}</th>
            </tr>
          </thead>
          <tbody>
            {days.map((d) => (
              <tr key={d.date}>
                <td>{dayFormat.format(new Date(d.date))}</td>
                <td>{d.signatures}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </section>
  )
}
