// The floor for any Node CLI: one GET with undici, body printed. URL and token come from the
// environment, as the CLI's do.
import { request } from 'undici';

const { STORE_ADMIN_BASE_URL: base, STORE_ADMIN_TOKEN: token } = process.env;
const { body } = await request(`${base}/api/admin/categories/1/`, {
  headers: { authorization: `Bearer ${token}`, 'x-store-api-version': '2024-04-01', accept: 'application/json' },
});
process.stdout.write(`${await body.text()}\n`);
