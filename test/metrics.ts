// Reading a process's GET /metrics back in tests: the Prometheus text format parsed into one
// value per series, keyed `name{label="value",…}` with the labels sorted by name.
import assert from 'node:assert/strict'
import type { MetricsServer } from '../src/metrics/metrics-server.ts'
import { startMetricsServer } from '../src/metrics/metrics-server.ts'
import type { TestApp } from './harness.ts'

/** `name{a="1",b="2"}` from a name and labels in any order. */
export function series(name: string, labels: Record<string, string> = {}): string {
  const parts = Object.keys(labels)
    .sort()
    .map((label) => `${label}="${labels[label]}"`)
  return parts.length === 0 ? name : `${name}{${parts.join(',')}}`
}

/** Every sample of a text exposition (comments skipped), by series. */
export function parseMetrics(text: string): Map<string, number> {
  const samples = new Map<string, number>()
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line)
    assert.ok(match, `not a sample line: ${line}`)
    const labels: Record<string, string> = {}
    for (const [, label, value] of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g))
      labels[label as string] = value as string
    samples.set(series(match[1] as string, labels), Number(match[3]))
  }
  return samples
}

/** GET {address}/metrics, asserted 200 in the Prometheus text format, parsed. */
export async function scrape(address: string): Promise<{ text: string; samples: Map<string, number> }> {
  const res = await fetch(`${address}/metrics`)
  assert.equal(res.status, 200)
  assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/)
  const text = await res.text()
  return { text, samples: parseMetrics(text) }
}

/** The test app's metrics on a listener of their own (its METRICS_LISTEN must be set). */
export async function listenForMetrics(t: TestApp): Promise<MetricsServer> {
  const { registry } = t.deps.metrics
  assert.ok(registry && t.config.metricsListen, 'METRICS_LISTEN is set for this app')
  return startMetricsServer(t.config.metricsListen, registry, t.deps.logger)
}
