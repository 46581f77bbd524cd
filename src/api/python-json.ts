// The bytes Python's `json.dumps(json.loads(body))` gives with default settings: the platform
// signs these, not the bytes it sends (platform facts, "the serialisation trap"). Parsed here by
// hand because JSON.parse would lose what Python keeps: a number's kind (1.0 stays a float), big
// integers' digits, and the first position of a repeated key.

export class JsonSyntaxError extends Error {
  override name = 'JsonSyntaxError';
}

/** `json.dumps(json.loads(text))` as Python would print it; throws JsonSyntaxError on bad JSON. */
export function pythonJsonDumps(text: string): string {
  const parser = new Parser(text);
  parser.skipSpace();
  const out = parser.value();
  parser.skipSpace();
  if (parser.at < text.length) parser.fail('unexpected text after the JSON value');
  return out;
}

const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;

class Parser {
  at = 0;
  constructor(readonly text: string) {}

  fail(message: string): never {
    throw new JsonSyntaxError(`${message} at character ${this.at}`);
  }

  skipSpace(): void {
    while (this.at < this.text.length && ' \t\n\r'.includes(this.text[this.at]!)) this.at++;
  }

  value(): string {
    const c = this.text[this.at];
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    if (c === '"') return pythonString(this.string());
    for (const word of ['true', 'false', 'null'] as const) {
      if (this.text.startsWith(word, this.at)) {
        this.at += word.length;
        return word;
      }
    }
    // Python's json module also reads these three, and writes them back unchanged.
    for (const word of ['NaN', 'Infinity', '-Infinity'] as const) {
      if (this.text.startsWith(word, this.at)) {
        this.at += word.length;
        return word;
      }
    }
    return this.number();
  }

  object(): string {
    this.at++;
    // A repeated key keeps its first place and takes its last value, as in a Python dict.
    const members = new Map<string, string>();
    this.skipSpace();
    if (this.text[this.at] === '}') {
      this.at++;
      return '{}';
    }
    for (;;) {
      this.skipSpace();
      if (this.text[this.at] !== '"') this.fail('expected a key');
      const key = this.string();
      this.skipSpace();
      if (this.text[this.at] !== ':') this.fail('expected ":"');
      this.at++;
      this.skipSpace();
      members.set(key, this.value());
      this.skipSpace();
      const next = this.text[this.at++];
      if (next === '}') break;
      if (next !== ',') this.fail('expected "," or "}"');
    }
    return `{${Array.from(members, ([key, value]) => `${pythonString(key)}: ${value}`).join(', ')}}`;
  }

  array(): string {
    this.at++;
    const items: string[] = [];
    this.skipSpace();
    if (this.text[this.at] === ']') {
      this.at++;
      return '[]';
    }
    for (;;) {
      this.skipSpace();
      items.push(this.value());
      this.skipSpace();
      const next = this.text[this.at++];
      if (next === ']') break;
      if (next !== ',') this.fail('expected "," or "]"');
    }
    return `[${items.join(', ')}]`;
  }

  /** Matches `pattern` (sticky) where the parser stands, without copying the rest of the text. */
  token(pattern: RegExp): RegExpExecArray | null {
    pattern.lastIndex = this.at;
    const match = pattern.exec(this.text);
    if (match) this.at += match[0].length;
    return match;
  }

  /** A string token, decoded (JSON.parse knows every escape, lone surrogates included). */
  string(): string {
    const match = this.token(STRING);
    if (!match) this.fail('bad string');
    return JSON.parse(match[0]) as string;
  }

  number(): string {
    const match = this.token(NUMBER);
    if (!match) this.fail('unexpected character');
    // No fraction and no exponent: a Python int, printed with all its digits ("-0" becomes "0").
    if (match[1] === undefined && match[2] === undefined) return BigInt(match[0]).toString();
    return pythonFloat(Number(match[0]));
  }
}

/** Python's repr of a float: the shortest round-trip digits, fixed between 1e-4 and 1e16. */
export function pythonFloat(x: number): string {
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  if (Object.is(x, -0)) return '-0.0';
  if (x === 0) return '0.0';
  const [mantissa, exp] = x.toExponential().split('e') as [string, string];
  const exponent = Number(exp);
  const negative = mantissa.startsWith('-');
  const digits = mantissa.replace(/^-/, '').replace('.', '');
  const sign = negative ? '-' : '';
  if (exponent >= 16 || exponent < -4) {
    const rest = digits.slice(1);
    const power = `${exponent < 0 ? '-' : '+'}${String(Math.abs(exponent)).padStart(2, '0')}`;
    return `${sign}${digits[0]}${rest ? `.${rest}` : ''}e${power}`;
  }
  if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
  const whole = digits.slice(0, exponent + 1).padEnd(exponent + 1, '0');
  const fraction = digits.slice(exponent + 1);
  return `${sign}${whole}.${fraction || '0'}`;
}

const SHORT_ESCAPES: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };

/** Python's ensure_ascii string: everything outside space..~ escaped, UTF-16 units as \uXXXX. */
export function pythonString(value: string): string {
  return `"${value.replace(/["\\]|[^\x20-\x7e]/g, (c) => SHORT_ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`;
}
