// The console's HTML shell: the style sheet and the module script (which draws everything, routing
// on the client), a line for browsers without script. No inline script or style (the CSP).
import type { ConsoleAssets } from './console-assets.ts'

/**
 * The console's icon, inline (the CSP's img-src takes data: URLs): the brand's "P" on its dark
 * square, so a browser asks for no /favicon.ico (which would be a 404 on every page).
 */
export const CONSOLE_ICON_LINK = `<link rel="icon" href="data:image/svg+xml,${encodeURIComponent(
  "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'><rect width='32' height='32' rx='7' fill='#1e293b'/><text x='16' y='23' font-family='sans-serif' font-size='20' font-weight='700' fill='#fff' text-anchor='middle'>P</text></svg>",
)}">`

export function consoleShellHtml(assets: Pick<ConsoleAssets, 'script' | 'stylesheet' | 'preload'>): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Paraph console</title>
${CONSOLE_ICON_LINK}
<link rel="stylesheet" href="${assets.stylesheet}">
<script type="module" src="${assets.script}"></script>
${assets.preload.map((path) => `<link rel="modulepreload" href="${path}">`).join('\n')}
</head>
<body>
<div id="app"></div>
<noscript><p class="noscript">The Paraph console needs JavaScript. Please enable it, or use the API (/openapi.yaml).</p></noscript>
</body>
</html>
`
}
