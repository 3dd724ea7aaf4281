// Plain-text columns shared by the bench's table renderers (table.ts, limit-table.ts).

/** Aligns `lines` in columns; `lines[0]` is the header and sets how many columns there are. */
export function render(lines: string[][], rightAligned: ReadonlySet<number>): string {
  const widths = lines[0]!.map((_, i) =>
    Math.max(...lines.filter((l) => l.length > 2).map((l) => (l[i] ?? '').length)),
  )
  return lines
    .map((line) => {
      // A two-cell line (skipped, error) runs across the columns.
      if (line.length <= 2) return line.join('  ').trimEnd()
      return line
        .map((cell, i) => (rightAligned.has(i) ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
        .join('  ')
        .trimEnd()
    })
    .join('\n')
}
