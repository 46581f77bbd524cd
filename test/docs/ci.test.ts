// docs/ci.md, run as written: the GitHub Actions workflow's `run:` steps and the GitLab job's
// `script:` lines are taken from the page and run with bash against the sandbox, with CI=true and
// the files a runner gives a step. Only the install step is left out (the built CLI is put on
// PATH instead), and the artifact uploads are checked as the runner would resolve them.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FULL_TOKEN, useSandbox } from '../helpers.js';
import { readGithubOutput } from '../cli/github-output.js';
import { BIN, runCli, useConfigDir } from '../cli/run.js';

const DOC = readFileSync(new URL('../../docs/ci.md', import.meta.url), 'utf8');
const HOOK_SECRET = 'whsec_ci_test_0123456789abcdef';

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

function bash(script: string, env: Record<string, string>, cwd: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    // GitHub's and GitLab's own way to run a script: stop at the first failing command.
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('close', (code) => resolve({ code, output }));
  });
}

const sha256Of = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

describe('docs/ci.md', () => {
  const ctx = useSandbox({ exportDelaySeconds: 0.5 });
  const dir = useConfigDir();

  /** A checkout of a repository holding the page's webhooks file, and store-admin on PATH. */
  function workspace(name: string) {
    const root = join(dir, name);
    mkdirSync(join(root, 'bin'), { recursive: true });
    writeFileSync(join(root, 'webhooks.json'), block('## The webhooks file', 'json'));
    writeFileSync(join(root, 'bin', 'store-admin'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`, { mode: 0o755 });
    const env = {
      PATH: `${join(root, 'bin')}:${process.env.PATH}`,
      HOME: root,
      CI: 'true',
      STORE_ADMIN_CONFIG_DIR: join(dir, `${name}-config`),
    };
    return { root, env };
  }

  /** How many webhooks of the store have the name the page's file declares. */
  async function declaredInStore(): Promise<number> {
    const listed = await runCli(['webhooks', 'list', '--all', '--name', 'orders-to-erp', '--json'], {
      env: { STORE_ADMIN_BASE_URL: ctx.sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN, STORE_ADMIN_CONFIG_DIR: join(dir, 'lister') },
    });
    expect(listed.code, listed.stderr).toBe(0);
    const found = listed.json();
    return (Array.isArray(found) ? found : found.results).length;
  }

  /** Nothing a job printed or wrote for the runner holds the token or the webhook secret. */
  function expectNoSecrets(...texts: string[]) {
    for (const text of texts) {
      expect(text).not.toContain(FULL_TOKEN);
      expect(text).not.toContain(HOOK_SECRET);
    }
  }

  it('the GitHub Actions workflow runs as written, and hands the upload a verified file', async () => {
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
    const { root, env } = workspace('github');
    const context: Record<string, string> = { 'vars.STORE_URL': ctx.sandbox.url, 'secrets.STORE_TOKEN': FULL_TOKEN, 'secrets.ORDERS_HOOK_SECRET': HOOK_SECRET };
    const base = { ...env, GITHUB_ACTIONS: 'true', ...Object.fromEntries(Object.entries(jobEnv).map(([k, v]) => [k, expand(v, context)])) };
    const summary = join(root, 'summary.md');
    writeFileSync(summary, '');
    const logs: string[] = [];
    for (const [index, step] of steps.entries()) {
      if (!step.run || step.name === 'Install store-admin') continue;
      // Each step gets a fresh output file, read into steps.<id>.outputs once it ends.
      const output = join(root, `output-${index}`);
      writeFileSync(output, '');
      const r = await bash(step.run, { ...base, GITHUB_OUTPUT: output, GITHUB_STEP_SUMMARY: summary }, root);
      logs.push(r.output);
      expect(r.code, `step "${step.name}":\n${r.output}`).toBe(0);
      const text = readFileSync(output, 'utf8');
      logs.push(text);
      if (step.id) for (const [name, value] of Object.entries(readGithubOutput(text))) context[`steps.${step.id}.outputs.${name}`] = value;
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

  it('the GitLab CI job runs as written, and keeps its artifacts', async () => {
    const lines = block('## GitLab CI', 'yaml').split('\n');
    const list = (key: string) =>
      nested(lines, lines.findIndex((l) => l.trim() === `${key}:`))
        .filter((l) => l.trim())
        .map((l) => l.replace(/^- /, ''));
    expect(list('before_script')).toEqual(['npm install --global store-admin']);
    const variables = Object.fromEntries(list('variables').map((l) => l.split(/: (.*)/).slice(0, 2) as [string, string]));
    const { root, env } = workspace('gitlab');
    // The CI/CD variables the page names.
    const r = await bash(list('script').join('\n'), { ...env, ...variables, GITLAB_CI: 'true', STORE_URL: ctx.sandbox.url, STORE_TOKEN: FULL_TOKEN, ORDERS_HOOK_SECRET: HOOK_SECRET }, root);
    expect(r.code, r.output).toBe(0);
    const artifacts = list('paths');
    for (const artifact of artifacts) expect(existsSync(join(root, artifact)), artifact).toBe(true);
    const saved = JSON.parse(readFileSync(join(root, 'export.json'), 'utf8'));
    expect(saved).toMatchObject({ status: 'available', download: { path: 'orders.csv', sha256: sha256Of(join(root, 'orders.csv')) } });
    const plan = JSON.parse(readFileSync(join(root, 'webhooks-plan.json'), 'utf8'));
    expect(plan.counts.created + plan.counts.unchanged).toBe(1);
    expect(await declaredInStore()).toBe(1);
    expectNoSecrets(r.output, ...artifacts.map((a) => readFileSync(join(root, a), 'utf8')));
  });
});
