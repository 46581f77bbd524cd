// Row 7 of npm run bench: `fulfillment-orders fulfill` over a tracking CSV on a sandbox grown to
// 10,000 orders and enforcing the platform's 4 requests a second. The plan is made (--plan-only),
// then applied (--apply-plan) at the default rate; the run is killed with SIGKILL just as one of
// its fulfilments reaches the store (so that one is made and its answer lost), and resumed. A
// counting proxy in front of the sandbox sees every request the store receives. Printed: the
// requests a second the store received over the wall time of the two applying runs, the POSTs a
// fulfillment order received more than once (must be 0), and the lines whose outcome differs
// from the plan's prediction (must be 0).
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';

export const FULFIL_ORDERS = 10_000;
const CARRIERS = ['ups', 'usps', 'dhl_ecommerce', 'fedex', 'royal_mail'];
/** Every so many lines, a carrier the platform does not know: those lines are INVALID, sent nothing. */
const UNKNOWN_CARRIER_EVERY = 250;
export const FULFIL_TARGETS = { rate: 3.9, duplicates: 0, mismatches: 0 };

/**
 * Runs the row: `lines` tracking lines for orders 10003 downwards (the anchors', then the
 * generated ones numbered below them). Returns the figures printed by `fulfilRowText`.
 */
export async function fulfilRow({ bin, work, token, env, lines, listening }) {
  const store = spawn(process.execPath, [bin, 'sandbox', 'start', '--size', String(FULFIL_ORDERS), '--port', '0', '--token', token, '--faults', 'rate=4'], { stdio: ['ignore', 'pipe', 'inherit'] });
  let proxy;
  try {
    const storeUrl = await listening(store);
    let onFulfil = () => {};
    proxy = await countingProxy(storeUrl, (method, path) => {
      if (method === 'POST' && /\/fulfillment-orders\/\d+\/fulfillments\/$/.test(path)) onFulfil();
    });
    const runEnv = { ...env, STORE_ADMIN_BASE_URL: proxy.url, STORE_ADMIN_TOKEN: token };
    const csv = join(work, 'tracking.csv');
    const numbers = Array.from({ length: lines }, (_, i) => String(10_003 - i));
    const carrier = (i) => ((i + 1) % UNKNOWN_CARRIER_EVERY === 0 ? 'pigeon-post' : CARRIERS[i % CARRIERS.length]);
    writeFileSync(csv, `order_number,tracking_code,carrier\n${numbers.map((number, i) => `${number},BENCH${number},${carrier(i)}`).join('\n')}\n`);
    const plan = join(work, 'fulfil-plan.csv');
    const report = join(work, 'fulfil-report.csv');
    const job = ['fulfillment-orders', 'fulfill'];

    const planned = await run(bin, [...job, '--each', csv, '--plan', plan, '--plan-only'], runEnv);
    if (planned.code !== 0) throw new Error(`the plan failed (${planned.code}): ${planned.stderr}`);
    const predictions = csvRows(readFileSync(plan, 'utf8'));
    const ready = predictions.filter((row) => row.class === 'READY').length;
    // A store of 10,000 orders in every state the seed tells: about a third of them can be fulfilled.
    if (ready < lines / 5) throw new Error(`only ${ready} of ${lines} lines can be fulfilled: the store is not the grown one`);

    // Killed as the store receives the fulfilment half-way through: the store makes it, the answer never arrives.
    const killAt = Math.ceil(ready / 2);
    const apply = [...job, '--apply-plan', plan, '--yes', '--report', report];
    const first = { started: performance.now(), requests: proxy.log.length };
    const killed = run(bin, apply, runEnv, (child) => {
      let seen = 0;
      onFulfil = () => {
        if (++seen === killAt) child.kill('SIGKILL');
      };
    });
    const cut = await killed;
    onFulfil = () => {};
    first.ended = performance.now();
    first.received = proxy.log.length - first.requests;
    if (cut.signal !== 'SIGKILL') throw new Error(`the applying run ended before it was killed (${cut.code}): ${cut.stderr}`);

    // As a person would: a resume started within the second would meet the store still counting the killed run's requests.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const second = { started: performance.now(), requests: proxy.log.length };
    const resumed = await run(bin, [...apply, '--resume'], runEnv);
    second.ended = performance.now();
    second.received = proxy.log.length - second.requests;
    // Lines left for a person (on hold, unknown carrier…) make the exit 1; anything else is a failure of the run.
    if (resumed.code !== 0 && resumed.code !== 1) throw new Error(`the resumed run failed (${resumed.code}): ${resumed.stderr}`);

    // A POST answered 429 was not taken by the store (the run sends it again after the wait): counted apart.
    const posts = new Map();
    let throttled = 0;
    for (const { method, path, status } of proxy.log) {
      if (status === 429) throttled++;
      else if (method === 'POST' && path.endsWith('/fulfillments/')) posts.set(path, (posts.get(path) ?? 0) + 1);
    }
    const duplicates = [...posts.values()].reduce((sum, count) => sum + Math.max(0, count - 1), 0);
    const outcomes = new Map(csvRows(readFileSync(report, 'utf8')).map((row) => [row.line, row]));
    const mismatched = predictions.filter((row) => {
      const outcome = outcomes.get(row.line);
      return !outcome || outcome.outcome !== (row.class === 'READY' ? 'applied' : 'skipped') || outcome.class !== row.class;
    });
    if (process.env.BENCH_DEBUG) {
      for (const row of mismatched) console.error('mismatch', JSON.stringify(row), JSON.stringify(outcomes.get(row.line)));
      const statuses = {};
      for (const entry of proxy.log) statuses[`${entry.method} ${entry.status}`] = (statuses[`${entry.method} ${entry.status}`] ?? 0) + 1;
      console.error(statuses, [...posts].filter(([, n]) => n > 1).slice(0, 5));
      console.error(cut.stderr.slice(-2000), resumed.stderr.slice(-3000));
    }
    const mismatches = mismatched.length;
    const seconds = (first.ended - first.started + (second.ended - second.started)) / 1000;
    const requests = first.received + second.received;
    return { lines, ready, killAt, fulfilled: posts.size, requests, seconds, rate: requests / seconds, throttled, duplicates, mismatches };
  } finally {
    await proxy?.close();
    store.kill('SIGTERM');
  }
}

export function fulfilRowText(figures) {
  const { lines, ready, killAt, fulfilled, requests, seconds, rate, throttled, duplicates, mismatches } = figures;
  const ok = rate >= FULFIL_TARGETS.rate && duplicates === FULFIL_TARGETS.duplicates && mismatches === FULFIL_TARGETS.mismatches;
  return (
    `| 7. fulfillment-orders fulfill, ${lines} lines on a store of ${FULFIL_ORDERS} orders enforcing 4/s (${ready} planned READY, ${fulfilled} fulfilled), SIGKILL at fulfilment ${killAt}, --resume ` +
    `| ${rate.toFixed(2)} req/s (${requests} requests in ${seconds.toFixed(1)} s, ${throttled} × 429); ${duplicates} duplicate POSTs; ${mismatches} plan/outcome mismatches | 4/s | ${(rate / 4).toFixed(3)} ` +
    `| ≥ ${FULFIL_TARGETS.rate}/s, 0 duplicates, 0 mismatches | ${ok ? 'met' : 'MISSED'} |`
  );
}

/** Runs the CLI to its end; `started` is given the child as soon as it runs. */
function run(bin, args, env, started = () => {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    started(child);
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stderr }));
  });
}

/** A CSV file's rows by column (the plan's `# store-admin plan` line left out); no cell here spans lines. */
function csvRows(text) {
  const [header, ...rows] = text.split(/\r?\n/).filter((line) => line && !line.startsWith('#'));
  const names = header.split(',');
  return rows.map((line) => {
    const cells = [];
    for (const match of line.matchAll(/("(?:[^"]|"")*"|[^,]*)(,|$)/g)) {
      cells.push(match[1].startsWith('"') ? match[1].slice(1, -1).replaceAll('""', '"') : match[1]);
      if (match[2] === '') break;
    }
    return Object.fromEntries(names.map((name, at) => [name, cells[at] ?? '']));
  });
}

/**
 * A proxy that logs every request the store behind it receives, each once its body has arrived
 * whole: `onRequest` runs then, before it is forwarded (the row kills its run there), so what the
 * log holds is what the store got.
 */
function countingProxy(target, onRequest) {
  const log = [];
  const agent = new http.Agent({ keepAlive: true });
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url.split('?')[0];
      const entry = { method: req.method, path };
      log.push(entry);
      onRequest(req.method, path);
      const upstream = http.request(new URL(req.url, target), { method: req.method, headers: req.headers, agent }, (answer) => {
        entry.status = answer.statusCode;
        res.on('error', () => answer.resume());
        res.writeHead(answer.statusCode, answer.headers);
        answer.pipe(res);
      });
      upstream.on('error', () => res.destroy());
      upstream.end(Buffer.concat(chunks));
    });
    req.on('error', () => {});
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve({
        url: `http://127.0.0.1:${server.address().port}`,
        log,
        close: () => {
          agent.destroy();
          server.closeAllConnections();
          return new Promise((done) => server.close(done));
        },
      });
    });
  });
}
