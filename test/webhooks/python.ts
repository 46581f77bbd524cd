// The platform's own check, run by Python itself when this machine has it: the reference the
// serialiser in src/api/python-json.ts is held to.
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

/**
 * Python's json.dumps written again, apart from the product's, for machines without python3:
 * enough for the sandbox's bodies. Fractions only between 1e-4 and 1e16, where Python's float repr
 * and JavaScript's shortest form print the same digits.
 */
export function independentDumps(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number') {
    const size = Math.abs(value);
    if (!Number.isInteger(value) && (size < 1e-4 || size >= 1e16)) throw new Error(`independentDumps cannot print ${value}`);
    return String(value);
  }
  if (typeof value === 'string') {
    return `"${Array.from({ length: value.length }, (_, i) => {
      const c = value[i]!;
      const code = value.charCodeAt(i);
      if (c === '"' || c === '\\') return `\\${c}`;
      if (code >= 0x20 && code < 0x7f) return c;
      const short = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' }[c];
      return short ?? `\\u${code.toString(16).padStart(4, '0')}`;
    }).join('')}"`;
  }
  if (Array.isArray(value)) return `[${value.map(independentDumps).join(', ')}]`;
  return `{${Object.entries(value as object).map(([k, v]) => `${independentDumps(k)}: ${independentDumps(v)}`).join(', ')}}`;
}
