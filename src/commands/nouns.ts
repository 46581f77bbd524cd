// The store's nouns as a path names them (`users`, `fulfillment-orders`, `stockrecords`), read as
// people say them, for the words the commands make up: argument help, sub-group descriptions and
// confirmation questions.

/** Path segments that people call otherwise. */
const NAMES: Readonly<Record<string, string>> = {
  users: 'customer',
  stockrecords: 'stock record',
  tickettypes: 'ticket type',
  children: 'child product',
  metadata: 'metadata field',
  settings: 'settings',
  templates: 'templates',
  store: 'store',
};

/** One of a path segment's things: `orders` → `order`, `categories` → `category`, `addresses` → `address`. */
export function singular(segment: string): string {
  const named = NAMES[segment];
  if (named) return named;
  const words = segment.replace(/-/g, ' ');
  if (words.endsWith('ies')) return `${words.slice(0, -3)}y`;
  if (/(ss|x|ch|sh)es$/.test(words)) return words.slice(0, -2);
  return words.replace(/s$/, '');
}

/** `an order`, `a customer`. */
export function withArticle(noun: string): string {
  return `${/^[aeiou]/.test(noun) ? 'an' : 'a'} ${noun}`;
}

/** A path as pairs of a segment and the parameter that picks one of its things (if any): `/orders/{number}/cancel/` → orders:number, cancel. */
export function pathPairs(path: string): { segment: string; param?: string }[] {
  const pairs: { segment: string; param?: string }[] = [];
  for (const part of path.split('/').filter(Boolean)) {
    const param = /^\{(\w+)\}$/.exec(part)?.[1];
    if (param && pairs.length > 0 && pairs.at(-1)!.param === undefined) pairs.at(-1)!.param = param;
    else if (!param) pairs.push({ segment: part });
  }
  return pairs;
}
