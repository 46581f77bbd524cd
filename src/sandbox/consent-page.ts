// The sandbox store's consent page, as the dashboard shows it to a person asked to let an app in:
// plain HTML and CSS, a form that works without JavaScript, usable from a phone's width to a
// desktop's and by keyboard alone. Every value from the request is escaped.
import { escapeHtml as escape } from '../output/html.js';

export interface ConsentView {
  storeName: string;
  appName: string;
  /** Where the answer goes, shown so the person can see it is their own machine. */
  redirectUri: string;
  /** Scopes asked for, each offered as a ticked box the person may untick. */
  scopes: readonly string[];
  /** The pending request's id: the form names it, not the request's parameters. */
  request: string;
  /** Said above the form when a first answer could not be used. */
  problem?: string;
}


const RESOURCE_WORDS: Record<string, string> = {
  users: 'customers',
  catalogue: 'the product catalogue',
  fulfillment_service: 'the fulfillment service',
  fulfillment_orders: 'fulfillment orders',
};

/** `orders:write` → "Change orders"; the super-scopes say what they are. */
export function describeScope(scope: string): string {
  const [resource = scope, access = ''] = scope.split(':');
  if (resource === 'admin') return access === 'write' ? 'Change everything in the store' : 'See everything in the store';
  const what = RESOURCE_WORDS[resource] ?? resource.replace(/_/g, ' ');
  if (access === 'read') return `See ${what}`;
  if (access === 'write') return `Change ${what}`;
  return `Use ${what} (${access})`;
}

const STYLE = `
*,*::before,*::after{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2328;background:#f3f4f6}
main{max-width:34rem;margin:0 auto;padding:1.5rem 1rem 2rem}
.card{background:#fff;border:1px solid #d0d7de;border-radius:12px;padding:1.5rem}
.store{margin:0 0 .25rem;color:#57606a;font-size:.875rem;text-transform:uppercase;letter-spacing:.04em}
h1{margin:0 0 1rem;font-size:1.375rem;line-height:1.3}
fieldset{border:0;margin:0 0 1rem;padding:0}
legend{font-weight:600;margin-bottom:.5rem;padding:0}
ul{list-style:none;margin:0;padding:0}
li{border-top:1px solid #eaeef2}
li:last-child{border-bottom:1px solid #eaeef2}
label{display:flex;gap:.75rem;align-items:flex-start;padding:.625rem .25rem;cursor:pointer}
input[type=checkbox]{width:1.25rem;height:1.25rem;margin:.125rem 0 0;flex:none;accent-color:#1a7f37}
code{font:.8125rem/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;color:#57606a;overflow-wrap:anywhere}
.scope{display:flex;flex-direction:column}
.note{color:#57606a;font-size:.875rem;margin:0 0 1.25rem}
.problem{border:1px solid #cf222e;background:#ffebe9;border-radius:8px;padding:.75rem 1rem;margin:0 0 1rem}
.actions{display:flex;gap:.75rem;flex-wrap:wrap}
button{flex:1 1 10rem;min-height:2.75rem;font:inherit;font-weight:600;border-radius:8px;padding:.5rem 1rem;cursor:pointer}
.deny{background:#f6f8fa;color:#1f2328;border:1px solid #8c959f}
.approve{background:#1a7f37;color:#fff;border:1px solid #116329}
button:focus-visible,input:focus-visible{outline:3px solid #0969da;outline-offset:2px}
.where{margin:1rem 0 0;color:#57606a;font-size:.875rem}
@media (min-width:48rem){main{padding-top:4rem}.card{padding:2rem}}
`;

export function consentPage(view: ConsentView): string {
  const app = escape(view.appName);
  const rows = view.scopes
    .map(
      (scope, index) =>
        `<li><label for="scope-${index}"><input type="checkbox" id="scope-${index}" name="scope" value="${escape(scope)}" checked>` +
        `<span class="scope"><span>${escape(describeScope(scope))}</span><code>${escape(scope)}</code></span></label></li>`,
    )
    .join('\n');
  return page(
    `Allow ${app} to access ${escape(view.storeName)}?`,
    `<p class="store">${escape(view.storeName)}</p>
<h1 id="title">Allow <strong>${app}</strong> to access your store?</h1>
${view.problem ? `<p class="problem" role="alert">${escape(view.problem)}</p>` : ''}
<form method="post" aria-labelledby="title">
<input type="hidden" name="request" value="${escape(view.request)}">
<fieldset>
<legend>${app} asks to:</legend>
<ul>
${rows}
</ul>
</fieldset>
<p class="note">Untick what you do not want to allow. The app gets only what stays ticked.</p>
<div class="actions">
<button type="submit" name="decision" value="deny" class="deny">Deny</button>
<button type="submit" name="decision" value="approve" class="approve">Approve</button>
</div>
</form>
<p class="where">Your answer is sent to <code>${escape(view.redirectUri)}</code>.</p>`,
  );
}

/** What the store shows instead of redirecting when the link itself is wrong (OAuth forbids redirecting then). */
export function errorPage(title: string, detail: string): string {
  return page(escape(title), `<h1>${escape(title)}</h1>\n<p role="alert">${escape(detail)}</p>\n<p class="note">Nothing was shared with the app. Tell its developer what this page says.</p>`);
}

function page(title: string, content: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>${STYLE}</style>
</head>
<body>
<main><div class="card">
${content}
</div></main>
</body>
</html>
`;
}
