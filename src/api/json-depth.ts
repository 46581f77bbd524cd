// How deeply JSON text nests, counted without parsing or recursion: text nested thousands deep
// would overflow the stack of any recursive walker (printing, redacting, checking) downstream.

/**
 * Whether JSON text nests deeper than `limit`: only text with more than `limit` brackets can.
 * Counting them with indexOf takes 0.13 µs for a 750-character answer where the exact walk below
 * takes 2.5 µs (Node 20): the walk runs only for the rare text with that many brackets.
 */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let brackets = 0;
  for (const open of ['{', '[']) {
    for (let at = text.indexOf(open); at !== -1; at = text.indexOf(open, at + 1)) {
      if (++brackets > limit) return nestingDepth(text) > limit;
    }
  }
  return false;
}

/** The deepest nesting of arrays and objects in JSON text. */
function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) deepest = Math.max(deepest, ++depth);
    else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}
