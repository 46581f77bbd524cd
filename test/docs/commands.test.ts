// docs/commands.md is rendered from the command tree. With STORE_ADMIN_WRITE_DOCS=1 this test
// rewrites it; otherwise it fails when the committed file no longer matches the commands.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadAllOperations, sourceOf } from '../../src/api/operations.js';
import { commandTree } from '../../src/cli.js';
import { prepareHelp } from '../../src/commands/meta.js';
import { commandPath, leafCommands } from '../../src/commands/meta.js';
import { commandReference } from '../../src/docs/reference.js';
import { processIO } from '../../src/output/stream.js';

const DOC = new URL('../../docs/commands.md', import.meta.url);
const program = await commandTree(processIO());
await prepareHelp(program);
const rendered = commandReference(program);

describe('docs/commands.md', () => {
  it('documents every command and every operation', async () => {
    for (const command of leafCommands(program)) expect(rendered).toContain(`### ${commandPath(command)}\n`);
    for (const op of await loadAllOperations()) expect(rendered).toContain(`### store-admin ${op.command}\n`);
    expect(rendered).toContain(`(${sourceOf({ section: '4.1' })})`);
    expect(rendered).not.toContain('undefined');
  });

  it('matches the command tree', () => {
    if (process.env.STORE_ADMIN_WRITE_DOCS === '1') writeFileSync(DOC, rendered);
    const committed = existsSync(DOC) ? readFileSync(DOC, 'utf8') : '';
    expect(committed, 'docs/commands.md is stale: run npm run docs').toBe(rendered);
  });
});
