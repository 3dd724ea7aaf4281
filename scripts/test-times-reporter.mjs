// A node --test reporter that writes one JSON line per test file: its path and how long its process
// ran (the runner's own file-level event, which the TAP and spec reporters do not print). Read by
// scripts/test-plan.mjs for the slowest files and the next run's order.
import { resolve } from 'node:path'

export default async function* fileTimes(source) {
  for await (const event of source) {
    if (event.type !== 'test:complete') continue
    const { nesting, name, file, details } = event.data
    // The file-level event is the one named by the file's own path.
    if (nesting === 0 && file && resolve(name) === file) {
      yield `${JSON.stringify({ file, ms: details.duration_ms })}\n`
    }
  }
}
