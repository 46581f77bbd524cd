// Reads step outputs back as GitHub's runner does, so tests check what a next step would get.

/** GITHUB_OUTPUT as the runner reads it: `name=value` lines and `name<<DELIMITER` blocks. */
export function readGithubOutput(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const heredoc = /^([^=]+?)<<(.+)$/.exec(line);
    if (heredoc && (line.indexOf('=') === -1 || line.indexOf('<<') < line.indexOf('='))) {
      const end = lines.indexOf(heredoc[2]!, i + 1);
      values[heredoc[1]!] = lines.slice(i + 1, end).join('\n');
      i = end;
    } else if (line) {
      values[line.slice(0, line.indexOf('='))] = line.slice(line.indexOf('=') + 1);
    }
  }
  return values;
}
