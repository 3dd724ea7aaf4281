// Content-Disposition of downloads, shared by the S3 presigner and Paraph's own file route.

/**
 * RFC 6266 attachment header: an ASCII fallback in `filename` (quotes, backslashes, `%` and control
 * characters replaced) and, when the name is not plain ASCII, the exact name in `filename*`.
 */
export function attachmentDisposition(downloadName: string): string {
  const name = downloadName.trim().replace(/[\p{Cc}/\\]/gu, '_') || 'download'
  const ascii = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\x20-\x7e]|["%]/g, '_')
  if (ascii === name) return `attachment; filename="${ascii}"`
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16)}`)
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`
}
