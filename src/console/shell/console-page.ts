// The console's HTML shell: the style sheet and the module script (which draws everything, routing
// on the client), a line for browsers without script. No inline script or style (the CSP).
import type { ConsoleAssets } from './console-assets.ts'

export function consoleShellHtml(assets: Pick<ConsoleAssets, 'script' | 'stylesheet' | 'preload'>): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Paraph console</title>
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
