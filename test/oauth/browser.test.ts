// Which command opens the consent page: BROWSER (with its own arguments), else the platform's
// opener; nothing over SSH without BROWSER; every failure named when none starts.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openBrowser } from '../../src/oauth/browser.js';
import { until } from '../helpers.js';

const URL_TO_OPEN = 'http://127.0.0.1:1/oauth2/authorize/?client_id=a&scope=orders%3Aread+x&state=s';

describe('openBrowser', () => {
  const dir = mkdtempSync(join(tmpdir(), 'store-admin-browser-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  // No opener on this PATH: only what the test names can start.
  const empty = mkdtempSync(join(dir, 'path-'));

  it('runs BROWSER with its own arguments and the URL as the last one', async () => {
    const record = join(dir, 'argv.json');
    const script = join(dir, 'record.mjs');
    writeFileSync(script, `import { writeFileSync } from 'node:fs'; writeFileSync(${JSON.stringify(record)}, JSON.stringify(process.argv.slice(2)));`);
    const outcome = await openBrowser(URL_TO_OPEN, { PATH: empty, BROWSER: `${process.execPath} ${script} --new-window` }, 'linux');
    expect(outcome).toEqual({ opened: true, by: process.execPath });
    // The opener runs on its own; its record is whole when it has run (the file is there, empty, a moment before).
    const argv = await until('the opener to write its record', () => existsSync(record) && /\]$/.test(readFileSync(record, 'utf8')) && readFileSync(record, 'utf8'));
    expect(JSON.parse(argv)).toEqual(['--new-window', URL_TO_OPEN]);
  });

  it('names every opener that could not start', async () => {
    const outcome = await openBrowser(URL_TO_OPEN, { PATH: empty, BROWSER: 'no-such-browser' }, 'linux');
    expect(outcome).toEqual({ opened: false, reason: 'no-such-browser: not found; xdg-open: not found' });
    expect(await openBrowser(URL_TO_OPEN, { PATH: empty }, 'darwin')).toEqual({ opened: false, reason: 'open: not found' });
  });

  it('opens nothing over SSH unless BROWSER says how', async () => {
    expect(await openBrowser(URL_TO_OPEN, { PATH: empty, SSH_CONNECTION: '10.0.0.1 5000 10.0.0.2 22' }, 'linux')).toEqual({
      opened: false,
      reason: 'this is an SSH session and BROWSER is not set',
    });
  });
});
