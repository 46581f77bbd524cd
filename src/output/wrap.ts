// A message for a person on a terminal, wrapped at word boundaries to its width: a line the
// terminal wraps itself is cut mid-word. Off a terminal a message stays one line, for logs and
// for the scripts that read it.

/** `line` (which has no line break) wrapped to `stream`'s width, continuation lines indented by two. */
export function wrapForTerminal(line: string, stream: { isTTY?: boolean; columns?: number }): string {
  const width = stream.isTTY ? stream.columns : undefined;
  if (!width || width < 20 || [...line].length <= width) return line;
  const lines: string[] = [];
  let current = '';
  for (const word of line.split(' ')) {
    const indent = lines.length > 0 ? '  ' : '';
    // A word longer than the room keeps its own line, whole: the terminal wraps it.
    if (current && [...`${indent}${current} ${word}`].length > width) {
      lines.push(`${indent}${current}`);
      current = word;
    } else {
      current = current ? `${current} ${word}` : word;
    }
  }
  lines.push(`${lines.length > 0 ? '  ' : ''}${current}`);
  return lines.join('\n');
}
