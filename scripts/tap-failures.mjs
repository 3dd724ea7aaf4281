// The failed tests of a TAP stream as node's test runner writes it (scripts/test.mjs): one line each,
// where it is and what went wrong, printed again at the end of a run so a log's last screen names
// them (a CI log often shows only its tail). A suite that failed because a test in it failed is not
// listed again: its failing tests are.

/**
 * @param {string} tap
 * @param {string} root  the checkout, cut from locations
 * @returns {{ where: string, name: string, why: string }[]}
 */
export function tapFailures(tap, root) {
  const lines = tap.split('\n')
  const failures = []
  for (let i = 0; i < lines.length; i++) {
    const failed = /^(\s*)not ok \d+ - (.*)$/.exec(lines[i])
    if (!failed) continue
    const indent = failed[1].length
    const block = {}
    for (let j = i + 1; j < lines.length; j++) {
      const line = lines[j]
      if (line.trim() === '---') continue
      if (line.trim() === '...' || /^\s*(not )?ok \d+/.test(line) || /^\s*# Subtest/.test(line)) break
      const field = /^\s*(location|failureType|error): (.*)$/.exec(line)
      if (!field) continue
      let value = field[2]
      // A block scalar (`|-`): its first line is what is worth a line here.
      if (value === '|-' || value === '>-') value = (lines[j + 1] ?? '').trim()
      block[field[1]] = value.replace(/^'(.*)'$/, '$1').replaceAll("''", "'")
    }
    if (block.failureType === 'subtestsFailed') continue
    const location = (block.location ?? '').replace(root, '').replace(/^\//, '')
    failures.push({
      where: location || '(no location)',
      name: failed[2].replace(/\s+# .*$/, ''),
      why: [block.failureType, block.error].filter(Boolean).join(': ') || `not ok at depth ${indent / 4}`,
    })
  }
  return failures
}
