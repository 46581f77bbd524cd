// JSON.parse keeps the last of two equal keys without a word. For a file that says what a store
// should hold (a webhooks file), the first one silently lost can delete a webhook: such keys are
// found here, in text already known to be valid JSON, and refused by the caller.

interface Frame {
  kind: 'object' | 'array';
  /** Where the container is, as a person reads it: `webhooks[0]`. */
  place: string;
  keys: Set<string>;
  index: number;
  /** The key just read, whose value comes next (objects only). */
  key?: string;
  /** In an object: the next string is a key. */
  expectKey: boolean;
}

/** Each key given twice in one object, in the order found: `webhooks[0].events`, or `webhooks` at the top. */
export function repeatedKeys(text: string): string[] {
  const found: string[] = [];
  const stack: Frame[] = [];
  const placeOfValue = (): string => {
    const top = stack.at(-1);
    if (!top) return '';
    return top.kind === 'array' ? `${top.place}[${top.index}]` : top.place ? `${top.place}.${top.key}` : top.key!;
  };
  for (let at = 0; at < text.length; at++) {
    const c = text[at]!;
    const top = stack.at(-1);
    if (c === '{' || c === '[') {
      stack.push({ kind: c === '{' ? 'object' : 'array', place: placeOfValue(), keys: new Set(), index: 0, expectKey: c === '{' });
    } else if (c === '}' || c === ']') {
      stack.pop();
    } else if (c === ',') {
      if (top?.kind === 'array') top.index++;
      else if (top) top.expectKey = true;
    } else if (c === '"') {
      let end = at + 1;
      while (text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      if (top?.kind === 'object' && top.expectKey) {
        const key = JSON.parse(text.slice(at, end + 1)) as string;
        if (top.keys.has(key)) found.push(top.place ? `${top.place}.${key}` : key);
        top.keys.add(key);
        top.key = key;
        top.expectKey = false;
      }
      at = end;
    }
  }
  return found;
}
