// The platform's own check, run by Python itself when this machine has it: the reference the
// serialiser in src/webhooks/python-json.ts is held to.
import { spawnSync } from 'node:child_process';

const probe = spawnSync('python3', ['-c', 'import json, hmac, hashlib'], { encoding: 'utf8' });
/** Why the Python-based checks cannot run here, or undefined when they can. */
export const pythonMissing = probe.status === 0 ? undefined : 'python3 is not installed on this machine';

/** `json.dumps(json.loads(text))` for each text, in one Python process. */
export function pythonDumpsAll(texts: readonly string[]): string[] {
  const script = 'import json, sys\nfor t in json.load(sys.stdin): print(json.dumps(json.dumps(json.loads(t))))';
  const run = spawnSync('python3', ['-c', script], { input: JSON.stringify(texts), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (run.status !== 0) throw new Error(`python3 failed: ${run.stderr}`);
  return run.stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as string);
}

/** The platform's documented check: HMAC-SHA256 hex of the body parsed and dumped again. */
export function pythonSignature(body: string, secret: string): string {
  const script =
    'import json, hmac, hashlib, sys\nd = json.load(sys.stdin)\n' +
    "print(hmac.new(d['secret'].encode(), json.dumps(json.loads(d['body'])).encode(), hashlib.sha256).hexdigest())";
  const run = spawnSync('python3', ['-c', script], { input: JSON.stringify({ body, secret }), encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`python3 failed: ${run.stderr}`);
  return run.stdout.trim();
}
