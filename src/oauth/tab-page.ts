// The page the browser's tab shows once the login has ended: what happened, and that the tab may
// be closed. The rest is said in the terminal.
import { escapeHtml as escape } from '../output/html.js';

export function tabPage(ok: boolean, title: string, detail: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>store-admin: ${escape(title)}</title>
<style>body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#1f2328;background:#f3f4f6}main{max-width:34rem;margin:3rem auto;padding:1.5rem;background:#fff;border:1px solid #d0d7de;border-radius:12px}h1{font-size:1.25rem;margin:0 0 .5rem;color:${ok ? '#1a7f37' : '#cf222e'}}</style>
</head>
<body>
<main>
<h1>${escape(title)}</h1>
<p>${escape(detail)}</p>
<p>You can close this tab and go back to the terminal.</p>
</main>
</body>
</html>
`;
}
