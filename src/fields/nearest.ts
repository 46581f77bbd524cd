// The nearest allowed value to a mistyped one, for "did you mean" hints on choices, commands and
// event names alike.

/** The nearest allowed value to a mistyped one: contained in it, or a few edits away. */
export function nearest(typed: string, choices: readonly string[]): string | undefined {
  const word = typed.trim().toLowerCase();
  if (!word) return undefined;
  const exact = choices.find((choice) => choice.toLowerCase() === word);
  if (exact) return exact;
  const containing = choices.filter((choice) => choice.toLowerCase().includes(word) || word.includes(choice.toLowerCase()));
  if (containing.length === 1) return containing[0];
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(word.length / 3)) + 1;
  for (const choice of choices) {
    const distance = editDistance(word, choice.toLowerCase());
    if (distance < bestDistance) [best, bestDistance] = [choice, distance];
  }
  return best;
}

function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}
