// The scopes an app may ask for, held to the platform's published reference whenever it sits
// beside the repository (STORE_ADMIN_REFERENCE names it elsewhere), and reported as skipped otherwise.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { operationScopes, platformScopes, SUPER_SCOPES } from '../../src/api/scopes.js';

const REFERENCE_RELATIVE = '../shared/reference';
const referenceDir = process.env.STORE_ADMIN_REFERENCE ?? fileURLToPath(new URL(`../../${REFERENCE_RELATIVE}`, import.meta.url));
const referencePresent = existsSync(referenceDir);

describe('the platform scopes', () => {
  it("are the operation table's scopes and the super-scopes no operation names, and nothing else", async () => {
    const scopes = await platformScopes();
    expect([...scopes].sort()).toEqual([...new Set([...(await operationScopes()), 'admin:read', 'admin:write'])].sort());
    expect(SUPER_SCOPES).toEqual(['admin:read', 'admin:write']);
    expect(new Set(scopes).size).toBe(scopes.length);
  });
});

describe.skipIf(!referencePresent)(
  referencePresent ? `the platform scopes against ${REFERENCE_RELATIVE}` : `SKIPPED: ${REFERENCE_RELATIVE} not present (a clone of the repository alone; set STORE_ADMIN_REFERENCE to check it)`,
  () => {
    it('are the scopes of every operation of every published version, and admin:read and admin:write', async () => {
      const published = new Set<string>(['admin:read', 'admin:write']);
      for (const file of readdirSync(referenceDir).filter((name) => /^admin-api-.*\.json$/.test(name))) {
        const { operations } = JSON.parse(readFileSync(join(referenceDir, file), 'utf8')) as { operations: { scopes: string[] }[] };
        for (const operation of operations) for (const scope of operation.scopes) published.add(scope);
      }
      expect([...(await platformScopes())].sort()).toEqual([...published].sort());
    });
  },
);
