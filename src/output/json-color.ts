// JSON for a person at a terminal: keys, strings and other values in colours, as gh and jq do.
import type { ChalkInstance } from 'chalk';

const TOKEN = /("(?:\\.|[^"\\])*")(\s*:)?|\b(?:true|false)\b|\bnull\b|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;

export function colorJson(json: string, chalk: ChalkInstance): string {
  return json.replace(TOKEN, (token, string: string | undefined, colon: string | undefined) => {
    if (string !== undefined) return colon ? `${chalk.blue.bold(string)}${colon}` : chalk.green(string);
    if (token === 'null') return chalk.dim(token);
    return chalk.yellow(token);
  });
}
