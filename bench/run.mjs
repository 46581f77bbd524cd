// npm run bench: start-up and bulk throughput of the built CLI against bare Node doing the same
// work, measured in one run, alternating the two sides, as ratios of medians.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const bin = join(root, 'bin/store-admin.js');
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const BULK = Number(process.env.BENCH_BULK ?? 2000);
const CONCURRENCY = 4;
const work = mkdtempSync(join(tmpdir(), 'store-admin-bench-'));
const token = `bench-${process.pid}-token`;

const sandbox = spawn(process.execPath, [bin, 'sandbox', '--port', '0', '--token', token], { stdio: ['ignore', 'pipe', 'inherit'] });
const url = await new Promise((resolve, reject) => {
  let out = '';
  sandbox.stdout.on('data', (chunk) => {
    out += chunk;
    const match = /listening on (http:\/\/\S+)/.exec(out);
    if (match) resolve(match[1]);
  });
  sandbox.once('exit', () => reject(new Error(`the sandbox did not start:\n${out}`)));
});
const env = { ...process.env, STORE_ADMIN_BASE_URL: url, STORE_ADMIN_TOKEN: token, STORE_ADMIN_CONFIG_DIR: work, BENCH_CONCURRENCY: String(CONCURRENCY) };

function timed(args, extraEnv = {}) {
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { env: { ...env, ...extraEnv }, stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) throw new Error(`${args.join(' ')} failed (${result.status}): ${result.stderr}`);
  return ms;
}

function rss(args, extraEnv = {}) {
  const result = spawnSync(process.execPath, ['--import', join(root, 'bench/report-rss.mjs'), ...args], {
    env: { ...env, ...extraEnv },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return Number(/BENCH_MAX_RSS_KB=(\d+)/.exec(String(result.stderr))?.[1] ?? NaN) / 1024;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** Alternates the two sides so that load on the machine falls on both alike. */
function compare(cli, floor, runs = RUNS, extraEnv = {}) {
  timed(cli, extraEnv);
  timed(floor, extraEnv);
  const a = [];
  const b = [];
  for (let i = 0; i < runs; i++) {
    a.push(timed(cli, extraEnv));
    b.push(timed(floor, extraEnv));
  }
  return { cli: median(a), floor: median(b) };
}

const rows = [];
const row = (name, result, ratio, target, ok) => rows.push({ name, cli: result.cli, floor: result.floor, ratio, target, ok });

try {
  const version = compare([bin, '--version'], ['-e', '0']);
  row('1. store-admin --version ÷ node -e 0', version, version.cli / version.floor, '≤ 1.15', version.cli / version.floor <= 1.15);
  const help = compare([bin, '--help'], ['-e', '0']);
  row('2. store-admin --help ÷ node -e 0', help, help.cli / help.floor, '≤ 1.30', help.cli / help.floor <= 1.3);
  const get = compare([bin, 'categories', 'get', '1', '--json'], [join(root, 'bench/floor-get.mjs')]);
  row('3. categories get 1 --json ÷ undici script', get, get.cli / get.floor, '≤ 1.60', get.cli / get.floor <= 1.6);

  const ids = join(work, 'ids.txt');
  writeFileSync(ids, Array.from({ length: BULK }, (_, i) => `${(i % 4) + 1}\n`).join(''));
  const bulkArgs = [bin, 'subscriptions', 'update', '--each', ids, '--interval-count', '2', '--rate', '0', '--concurrency', String(CONCURRENCY)];
  const bulk = compare(bulkArgs, [join(root, 'bench/floor-bulk.mjs')], Math.max(3, Math.round(RUNS / 5)), { BENCH_IDS: ids });
  const throughput = bulk.floor / bulk.cli;
  row(`4. ${BULK} updates via --each, throughput ÷ undici script`, bulk, throughput, '≥ 0.85', throughput >= 0.85);

  const rssGet = rss([bin, 'categories', 'get', '1', '--json']);
  const rssBulk = rss(bulkArgs, { BENCH_IDS: ids });
  const rssFloor = rss([join(root, 'bench/floor-get.mjs')]);

  const ms = (v) => `${v.toFixed(1)} ms`;
  console.log(`store-admin benchmark — Node ${process.version}, medians of ${RUNS} alternating runs (bulk: ${Math.max(3, Math.round(RUNS / 5))})\n`);
  console.log('| Measure | store-admin | floor | ratio | target | |');
  console.log('|---|---|---|---|---|---|');
  for (const r of rows) {
    console.log(`| ${r.name} | ${ms(r.cli)} | ${ms(r.floor)} | ${r.ratio.toFixed(2)} | ${r.target} | ${r.ok ? 'met' : 'MISSED'} |`);
  }
  console.log(`| 5. peak RSS: categories get / ${BULK} updates (floor: undici GET) | ${rssGet.toFixed(0)} MB / ${rssBulk.toFixed(0)} MB | ${rssFloor.toFixed(0)} MB | | ≤ 90 MB | ${Math.max(rssGet, rssBulk) <= 90 ? 'met' : 'MISSED'} |`);
} finally {
  sandbox.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
}
