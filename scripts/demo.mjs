// A short guided tour: real store-admin commands against the embedded sandbox store, in a
// throwaway config dir so every run starts from the seed data.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const bin = new URL('../bin/store-admin.js', import.meta.url).pathname;
const configDir = mkdtempSync(join(tmpdir(), 'store-admin-demo-'));
const env = { ...process.env, STORE_ADMIN_CONFIG_DIR: configDir, STORE_ADMIN_SANDBOX: '1' };
// A secret is read from a file (or - for stdin), never given as an argument that `ps` shows.
const secretFile = 'webhook-secret.txt';
writeFileSync(join(configDir, secretFile), 'demo-secret-0123456789\n', { mode: 0o600 });
// Headings in bold for a person; a pipe or a log gets plain text.
const bold = process.stdout.isTTY && !process.env.NO_COLOR ? (text) => `\x1b[1m${text}\x1b[0m` : (text) => text;

const tour = [
  ['What can be exported?', ['exports', 'types']],
  ['The fulfillment orders of order 10002', ['orders', 'fulfillment-orders', '10002']],
  ['Remove line 105 from order 10002 (totals are recomputed)', ['orders', 'remove-line', '10002', '105', '--yes']],
  ['Renew subscription 1 now, showing three fields with a JMESPath query', ['subscriptions', 'renew', '1', '--yes', '--query', '{status: status, next_renewal: next_renewal_date, orders: num_orders}']],
  ['Register a webhook, its secret read from a file (and masked in the answer)', ['webhooks', 'create', '--target', 'https://hooks.example.com/demo', '--event', 'order.created', '--event', 'order.updated', '--secret-key-file', secretFile]],
  ['Preview a change without sending it', ['subscriptions', 'update', '1', '--shipping-price', '4.99', '--dry-run']],
];

let failed = false;
try {
  for (const [title, args] of tour) {
    process.stdout.write(`\n${bold(`# ${title}`)}\n$ store-admin ${args.map((a) => (/[\s{}]/.test(a) ? `'${a}'` : a)).join(' ')}\n`);
    // Tables even when the tour's output is piped; the query step stays JSON.
    const format = args.includes('--query') ? [] : ['--output', 'table'];
    // In the tour's own folder, where the secret file is.
    const result = spawnSync(process.execPath, [bin, ...args, ...format], { env, stdio: 'inherit', cwd: configDir });
    if (result.status !== 0) {
      failed = true;
      process.stderr.write(`(exit ${result.status})\n`);
    }
  }
  process.stdout.write('\nEvery command above ran against the embedded sandbox (--sandbox). Try your own: npx --no-install store-admin --sandbox --help\n');
} finally {
  rmSync(configDir, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
