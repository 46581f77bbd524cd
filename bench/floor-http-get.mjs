// The floor that counts for a Node CLI: no dependencies, node:http, one GET, the body printed.
// URL and token come from the environment, as the CLI's do.
import { request } from 'node:http';

const { STORE_ADMIN_BASE_URL: base, STORE_ADMIN_TOKEN: token } = process.env;
const req = request(`${base}/api/admin/categories/1/`, {
  headers: { authorization: `Bearer ${token}`, 'x-store-api-version': '2024-04-01', accept: 'application/json' },
});
req.on('response', (res) => {
  let text = '';
  res.setEncoding('utf8');
  res.on('data', (chunk) => (text += chunk));
  res.on('end', () => process.stdout.write(`${text}\n`));
});
req.end();
