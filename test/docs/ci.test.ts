// docs/ci.md, run as written: the GitHub Actions workflow's `run:` steps and the GitLab job's
// `before_script:` and `script:` lines are taken from the page and run with bash against the
// sandbox, with CI=true and the files a runner gives a step. The install steps install the package
// this checkout packs (`npm pack`), served at the URL the pipeline's variable names and checked
// against its SHA-256 as the page says, into npm's global prefix (a private one here; packages from
// npm's cache first), and the jobs run what they installed. The artifact uploads are checked as
// the runner would resolve them.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers.js';
import { readGithubOutput } from '../cli/github-output.js';
import { runCli, useConfigDir } from '../cli/run.js';

const DOC = readFileSync(new URL('../../docs/ci.md', import.meta.url), 'utf8');
const REPO = new URL('../..', import.meta.url).pathname;
const HOOK_SECRET = 'whsec_ci_test_0123456789abcdef';
/** Long enough that the tool would show its last four characters anywhere but in CI. */
const CI_TOKEN = 'ci-store-token-0123456789-WXYZ';

/** The fenced block of `language` that follows `heading` on the page. */
function block(heading: string, language: string): string {
  const section = DOC.slice(DOC.indexOf(`\n${heading}\n`));
  const match = new RegExp('```' + language + '\\n([\\s\\S]*?)```').exec(section);
  if (!match) throw new Error(`docs/ci.md: no ${language} block under "${heading}"`);
  return match[1]!;
}

const indentOf = (line: string) => line.length - line.trimStart().length;

/** The lines under `line` that are indented deeper than it, dedented. */
function nested(lines: string[], at: number): string[] {
  const base = indentOf(lines[at]!);
  const body: string[] = [];
  for (let i = at + 1; i < lines.length && (lines[i]!.trim() === '' || indentOf(lines[i]!) > base); i++) body.push(lines[i]!);
  const cut = Math.min(...body.filter((l) => l.trim()).map(indentOf));
  return body.map((l) => l.slice(cut));
}

interface Step {
  name?: string;
  id?: string;
  uses?: string;
  run?: string;
  with: Record<string, string>;
}

/** The workflow's job-level env and its steps, read from the YAML as GitHub would. */
function githubWorkflow(yaml: string): { env: Record<string, string>; steps: Step[] } {
  const lines = yaml.split('\n');
  const env = Object.fromEntries(nested(lines, lines.findIndex((l) => /^ {4}env:$/.test(l))).map((l) => l.split(/: (.*)/).slice(0, 2) as [string, string]));
  const stepsAt = lines.findIndex((l) => /^ {4}steps:$/.test(l));
  const stepLines = nested(lines, stepsAt);
  const steps: Step[] = [];
  stepLines.forEach((line, i) => {
    if (line.startsWith('- ')) steps.push({ with: {} });
    const step = steps.at(-1)!;
    const field = /^(?:- | {2})(name|id|uses|run|with): ?(.*)$/.exec(line);
    if (!field) return;
    const [, key, value] = field;
    if (key === 'run') step.run = value === '|' ? nested(stepLines, i).join('\n') : value;
    else if (key === 'with') for (const entry of nested(stepLines, i)) step.with[entry.split(': ')[0]!] = entry.split(/: (.*)/)[1]!;
    else step[key as 'name' | 'id' | 'uses'] = value;
  });
  return { env, steps };
}

/** `${{ secrets.X }}`, `${{ vars.X }}` and `${{ steps.S.outputs.N }}`, as the runner fills them in. */
function expand(text: string, context: Record<string, string>): string {
  return text.replace(/\$\{\{\s*([\w.-]+)\s*\}\}/g, (_whole, name: string) => {
    if (!(name in context)) throw new Error(`docs/ci.md uses \${{ ${name} }}, which the test does not provide`);
    return context[name]!;
  });
}

function run(command: string, args: string[], env: Record<string, string | undefined>, cwd: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('close', (code) => resolve({ code, output }));
  });
}

/** GitHub's and GitLab's own way to run a script: stop at the first failing command. */
const bash = (script: string, env: Record<string, string>, cwd: string) => run('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], env, cwd);

/**
 * The release the pipelines install: this checkout packed as `npm pack` makes it (the suite has
 * built it), served over HTTP as a release asset would be, with its SHA-256.
 */
function useRelease() {
  const release = { url: '', sha256: '' };
  const dir = mkdtempSync(join(tmpdir(), 'store-admin-release-'));
  let server: Server | undefined;
  beforeAll(async () => {
    const packed = await run('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', dir], { PATH: process.env.PATH, HOME: dir }, REPO);
    expect(packed.code, packed.output).toBe(0);
    const name = readdirSync(dir).find((file) => file.endsWith('.tgz'))!;
    const bytes = readFileSync(join(dir, name));
    release.sha256 = createHash('sha256').update(bytes).digest('hex');
    server = createServer((req, res) => (req.url === `/releases/${name}` ? res.writeHead(200, { 'content-type': 'application/gzip' }).end(bytes) : res.writeHead(404).end()));
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    release.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/releases/${name}`;
  }, 60_000);
  afterAll(async () => {
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    rmSync(dir, { recursive: true, force: true });
  });
  return release;
}

const sha256Of = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

describe('docs/ci.md', () => {
  const ctx = useSandbox({ exportDelaySeconds: 0.5, token: CI_TOKEN });
  const dir = useConfigDir();
  const release = useRelease();

  /**
   * A checkout of a repository holding the page's webhooks file, on a runner whose npm installs
   * --global packages into a prefix of its own, with its bin on PATH (as setup-node's is).
   */
  function workspace(name: string) {
    const root = join(dir, name);
    const prefix = join(root, 'npm-global');
    mkdirSync(join(root, 'tmp'), { recursive: true });
    writeFileSync(join(root, 'webhooks.json'), block('## The webhooks file', 'json'));
    const env = {
      PATH: `${join(prefix, 'bin')}:${process.env.PATH}`,
      HOME: root,
      CI: 'true',
      STORE_ADMIN_CONFIG_DIR: join(dir, `${name}-config`),
      npm_config_prefix: prefix,
      // The dependencies come from npm's cache when it has them (the suite's install filled it), else from the registry.
      npm_config_cache: process.env.npm_config_cache ?? join(userInfo().homedir, '.npm'),
      npm_config_prefer_offline: 'true',
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
    };
    return { root, env, installed: join(prefix, 'bin', 'store-admin') };
  }

  /** How many webhooks of the store have the name the page's file declares. */
  async function declaredInStore(): Promise<number> {
    const listed = await runCli(['webhooks', 'list', '--all', '--name', 'orders-to-erp', '--json'], {
      env: { STORE_ADMIN_BASE_URL: ctx.sandbox.url, STORE_ADMIN_TOKEN: CI_TOKEN, STORE_ADMIN_CONFIG_DIR: join(dir, 'lister') },
    });
    expect(listed.code, listed.stderr).toBe(0);
    const found = listed.json();
    return (Array.isArray(found) ? found : found.results).length;
  }

  /** Nothing a job printed or wrote for the runner holds the token, its last four characters, or the webhook secret. */
  function expectNoSecrets(...texts: string[]) {
    for (const text of texts) {
      expect(text).not.toContain(CI_TOKEN);
      expect(text).not.toContain(CI_TOKEN.slice(-4));
      expect(text).not.toContain(HOOK_SECRET);
    }
  }

  // A whole pipeline, an npm install included: seconds on an idle machine, longer on a busy one.
  const PIPELINE = { timeout: 90_000 };

  it('the GitHub Actions workflow runs as written, and hands the upload a verified file', PIPELINE, async () => {
    const { env: jobEnv, steps } = githubWorkflow(block('## GitHub Actions', 'yaml'));
    expect(steps.map((s) => s.name ?? s.uses)).toEqual([
      'actions/checkout@v4',
      'actions/setup-node@v4',
      'Install store-admin',
      'Log in from the secret',
      'Apply the webhooks file',
      "Export last month's orders",
      'actions/upload-artifact@v4',
    ]);
    const { root, env, installed } = workspace('github');
    const context: Record<string, string> = {
      'vars.STORE_URL': ctx.sandbox.url,
      'secrets.STORE_TOKEN': CI_TOKEN,
      'secrets.ORDERS_HOOK_SECRET': HOOK_SECRET,
      'vars.STORE_ADMIN_TARBALL': release.url,
      'vars.STORE_ADMIN_SHA256': release.sha256,
    };
    const base = { ...env, GITHUB_ACTIONS: 'true', RUNNER_TEMP: join(root, 'tmp'), ...Object.fromEntries(Object.entries(jobEnv).map(([k, v]) => [k, expand(v, context)])) };
    const summary = join(root, 'summary.md');
    writeFileSync(summary, '');
    const logs: string[] = [];
    for (const [index, step] of steps.entries()) {
      if (!step.run) continue;
      // Each step gets a fresh output file, read into steps.<id>.outputs once it ends.
      const output = join(root, `output-${index}`);
      writeFileSync(output, '');
      const r = await bash(step.run, { ...base, GITHUB_OUTPUT: output, GITHUB_STEP_SUMMARY: summary }, root);
      logs.push(r.output);
      expect(r.code, `step "${step.name}":\n${r.output}`).toBe(0);
      const text = readFileSync(output, 'utf8');
      logs.push(text);
      if (step.id) for (const [name, value] of Object.entries(readGithubOutput(text))) context[`steps.${step.id}.outputs.${name}`] = value;
      // What the later steps run is what the install step installed.
      if (step.name === 'Install store-admin') expect((await bash('command -v store-admin', base, root)).output.trim()).toBe(installed);
    }
    const upload = steps.at(-1)!;
    const path = join(root, expand(upload.with.path!, context));
    expect(existsSync(path), `the artifact's path ${path}`).toBe(true);
    expect(readFileSync(path, 'utf8')).toMatch(/^number,date_placed,status,/);
    expect(context['steps.export.outputs.sha256']).toBe(sha256Of(path));
    expect(context['steps.export.outputs.bytes']).toBe(String(readFileSync(path).length));
    expect(context['steps.export.outputs.export_id']).toMatch(/^\d+$/);
    // The declared webhook is made by the first run of the file, and left as it is by the next.
    expect(Number(context['steps.webhooks.outputs.created']) + Number(context['steps.webhooks.outputs.unchanged'])).toBe(1);
    expect([context['steps.webhooks.outputs.updated'], context['steps.webhooks.outputs.deleted']]).toEqual(['0', '0']);
    expect(await declaredInStore()).toBe(1);
    expect(readFileSync(summary, 'utf8')).toContain(`### Export ${context['steps.export.outputs.export_id']} downloaded`);
    expect(readFileSync(summary, 'utf8')).toMatch(/^### Webhooks from `webhooks.json`: (applied|no changes)$/m);
    expect(readdirSync(root).filter((f) => f.endsWith('.part'))).toEqual([]);
    expectNoSecrets(...logs, readFileSync(summary, 'utf8'));
  });

  it('the GitLab CI job runs as written, and keeps its artifacts', PIPELINE, async () => {
    const lines = block('## GitLab CI', 'yaml').split('\n');
    const list = (key: string) =>
      nested(lines, lines.findIndex((l) => l.trim() === `${key}:`))
        .filter((l) => l.trim())
        .map((l) => l.replace(/^- /, ''));
    const variables = Object.fromEntries(list('variables').map((l) => l.split(/: (.*)/).slice(0, 2) as [string, string]));
    const { root, env, installed } = workspace('gitlab');
    // The CI/CD variables the page names; GitLab runs before_script and script in one shell.
    const cicd = { STORE_URL: ctx.sandbox.url, STORE_TOKEN: CI_TOKEN, ORDERS_HOOK_SECRET: HOOK_SECRET, STORE_ADMIN_TARBALL: release.url, STORE_ADMIN_SHA256: release.sha256 };
    const r = await bash([...list('before_script'), 'command -v store-admin', ...list('script')].join('\n'), { ...env, ...variables, GITLAB_CI: 'true', ...cicd }, root);
    expect(r.code, r.output).toBe(0);
    expect(r.output).toContain(`${installed}\n`);
    const artifacts = list('paths');
    for (const artifact of artifacts) expect(existsSync(join(root, artifact)), artifact).toBe(true);
    const saved = JSON.parse(readFileSync(join(root, 'export.json'), 'utf8'));
    expect(saved).toMatchObject({ status: 'available', download: { path: 'orders.csv', sha256: sha256Of(join(root, 'orders.csv')) } });
    const plan = JSON.parse(readFileSync(join(root, 'webhooks-plan.json'), 'utf8'));
    expect(plan.counts.created + plan.counts.unchanged).toBe(1);
    expect(await declaredInStore()).toBe(1);
    expectNoSecrets(r.output, ...artifacts.map((a) => readFileSync(join(root, a), 'utf8')));
  });

  it('a tarball that does not match the pinned SHA-256 fails the install step, and nothing of it is installed', async () => {
    const { steps } = githubWorkflow(block('## GitHub Actions', 'yaml'));
    const install = steps.find((step) => step.name === 'Install store-admin')!.run!;
    const { root, env, installed } = workspace('tampered');
    const r = await bash(install, { ...env, RUNNER_TEMP: join(root, 'tmp'), STORE_ADMIN_TARBALL: release.url, STORE_ADMIN_SHA256: '0'.repeat(64) }, root);
    expect(r.code).not.toBe(0);
    expect(r.output).toMatch(/store-admin\.tgz: FAILED/);
    expect(existsSync(installed)).toBe(false);
  });

  it('installs nothing by a package name that anyone could publish, nor does the README', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    for (const text of [DOC, readme]) {
      expect(text).not.toMatch(/npm (install|i)\b[^\n]*\bstore-admin(@[\w.-]+)?\s*$/m);
      // npx downloads a package it does not find locally, unless told not to.
      expect(text).not.toMatch(/\bnpx store-admin\b/);
    }
  });
});
