// paraph_http_requests_total and paraph_http_request_duration_seconds, kept as plain numbers per
// series and turned into prom-client's metric shape only when scraped. prom-client's own Counter
// and Histogram hash their label object on every call, even through a child from labels(): about
// 2.5 µs a request, 5 % of GET /v1/health's whole CPU (bench: GET /v1/health metrics). Here a
// request costs a Map lookup and a few additions.
import type { Registry } from 'prom-client'

/** 5 ms … 10 s: an API answer takes a few ms; a from_html render or a slow PDF URL takes seconds. */
export const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

const COUNT_NAME = 'paraph_http_requests_total'
const DURATION_NAME = 'paraph_http_request_duration_seconds'

interface Series {
  labels: { method: string; route: string; status: string }
  count: number
  sum: number
  /** Observations per bucket (not cumulative), the last one past the largest bound (+Inf). */
  buckets: number[]
}

/** One sample as the registry writes it (`metricName` for a histogram's `_bucket`, `_sum`, `_count`). */
interface Sample {
  metricName?: string
  labels: Record<string, string | number>
  value: number
}

interface Snapshot {
  name: string
  help: string
  type: string
  aggregator: 'sum'
  values: Sample[]
}

/** A metric as the registry reads it: the same shape prom-client's own metrics give. */
interface CustomMetric<T extends string> {
  name: string
  help: string
  type: T
  aggregator: 'sum'
  get(): Promise<Snapshot>
}

export class RequestSeries {
  readonly #series = new Map<string, Series>()

  constructor(registry: Registry) {
    const counter: CustomMetric<'counter'> = {
      name: COUNT_NAME,
      help: 'HTTP requests answered, by method, route pattern (or "unmatched") and status',
      type: 'counter',
      aggregator: 'sum',
      get: async () => this.#metric(counter, (s) => [{ labels: s.labels, value: s.count }]),
    }
    const histogram: CustomMetric<'histogram'> = {
      name: DURATION_NAME,
      help: 'Time from the request received to the response sent, by method, route pattern and status',
      type: 'histogram',
      aggregator: 'sum',
      get: async () => this.#metric(histogram, histogramValues),
    }
    // registerMetric takes any object with a name and get(): the text format is written from get().
    registry.registerMetric(counter as never)
    registry.registerMetric(histogram as never)
  }

  record(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${status} ${route}`
    let series = this.#series.get(key)
    if (!series) {
      series = {
        labels: { method, route, status: String(status) },
        count: 0,
        sum: 0,
        buckets: new Array(HTTP_BUCKETS.length + 1).fill(0),
      }
      this.#series.set(key, series)
    }
    series.count++
    series.sum += seconds
    let i = 0
    while (i < HTTP_BUCKETS.length && seconds > (HTTP_BUCKETS[i] as number)) i++
    ;(series.buckets[i] as number)++
  }

  #metric<T extends string>(metric: CustomMetric<T>, values: (s: Series) => Sample[]): Snapshot {
    return {
      name: metric.name,
      help: metric.help,
      type: metric.type,
      aggregator: metric.aggregator,
      values: [...this.#series.values()].flatMap(values),
    }
  }
}

/** prom-client's histogram values: cumulative `_bucket` per bound and +Inf, then `_sum` and `_count`. */
function histogramValues(s: Series): Sample[] {
  let cumulative = 0
  const values: Sample[] = HTTP_BUCKETS.map((bound, i) => {
    cumulative += s.buckets[i] as number
    return { metricName: `${DURATION_NAME}_bucket`, labels: { le: bound, ...s.labels }, value: cumulative }
  })
  values.push(
    { metricName: `${DURATION_NAME}_bucket`, labels: { le: '+Inf', ...s.labels }, value: s.count },
    { metricName: `${DURATION_NAME}_sum`, labels: s.labels, value: s.sum },
    { metricName: `${DURATION_NAME}_count`, labels: s.labels, value: s.count },
  )
  return values
}
