// Names that read as another: `оrders` with a Cyrillic о, `orders` with a zero-width space or a
// trailing space. Webhooks are matched by name, so with --prune a look-alike in a file deletes the
// webhook it imitates and creates itself; such names are refused in the file and pointed out in
// the plan when the store has them.

/** Letters of these scripts look like Latin ones. */
const SCRIPTS = ['Latin', 'Cyrillic', 'Greek', 'Armenian', 'Cherokee'] as const;
const LETTER_OF = SCRIPTS.map((script) => [script, new RegExp(`\\p{Script=${script}}`, 'u')] as const);
/** Characters that show as nothing (format characters, fillers, combining grapheme joiner, soft hyphen). */
const INVISIBLE = /[\p{Cf}\p{Cc}\u00ad\u034f\u115f\u1160\u3164\uffa0]/u;
const INVISIBLES = new RegExp(INVISIBLE.source, 'gu');

const codePoint = (c: string) => c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');

/** A name in quotes as a person should see it: what shows as nothing is written as an escape (`"orders\u200B"`). */
export function quotedName(name: string): string {
  return JSON.stringify(name).replace(INVISIBLES, (c) => `\\u${codePoint(c)}`);
}

/** What makes `name` a look-alike, in a few words; undefined for a plain name. */
export function lookAlike(name: string): string | undefined {
  const invisible = INVISIBLE.exec(name);
  if (invisible) return `holds an invisible character (U+${codePoint(invisible[0])})`;
  if (name !== name.trim() || /\s\s/.test(name)) return 'begins or ends with white space, or holds two spaces in a row';
  if (name.normalize('NFKC') !== name) return `holds characters that stand for others (it reads as ${JSON.stringify(name.normalize('NFKC'))})`;
  // A combining mark left on a Latin, Cyrillic or Greek letter once composed (NFC) draws on it:
  // `oͣrders`. Accented letters compose into one character, and other scripts' marks are their own.
  const marked = /[\p{Script=Latin}\p{Script=Cyrillic}\p{Script=Greek}](\p{M})/u.exec(name.normalize('NFC'));
  if (marked) return `holds a combining mark drawn over a letter (U+${codePoint(marked[1]!)})`;
  for (const word of name.split(/[^\p{L}\p{M}]+/u)) {
    const scripts = LETTER_OF.filter(([, letter]) => [...word].some((c) => letter.test(c))).map(([script]) => script);
    if (scripts.length > 1) return `mixes ${scripts.join(' and ')} letters in one word (${JSON.stringify(word)})`;
  }
  return undefined;
}
