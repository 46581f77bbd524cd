// Runs the sandbox in the foreground until the run's interrupt signal: Ctrl-C or SIGTERM.
import type { Output } from '../output/output.js';
import type { DeliveryOutcome } from './deliverer.js';
import { parseFaults } from './faults.js';
import { createSeed } from './seed.js';
import { startSandbox } from './server.js';
import { memoryStore } from './store.js';
import { DEFAULT_CLIENT_SECRET, PARTNER_APP, PLATFORM_RATE_PER_SECOND, REGISTERED_REDIRECT_URIS } from './settings.js';

export interface RunSandboxOptions {
  host: string;
  port: number;
  token?: string;
  scopedToken?: Record<string, string[]>;
  faults?: string;
  seed?: number;
  /** How many orders the store has (the seed's own when not given). */
  size?: number;
  exportDelay?: number;
  linkTtl?: number;
  webhookBackoff?: number;
  oauthClientSecret?: string;
  oauthRedirectUri?: string[];
}

export async function runSandbox(options: RunSandboxOptions, output: Pick<Output, 'text' | 'log'>, signal: AbortSignal): Promise<void> {
  const faults = options.faults !== undefined || options.seed !== undefined ? parseFaults(options.faults ?? '', options.seed) : undefined;
  let sandbox;
  try {
    sandbox = await startSandbox({
      host: options.host,
      port: options.port,
      token: options.token,
      ...(options.size !== undefined ? { store: memoryStore(createSeed({ size: options.size }), () => createSeed({ size: options.size })) } : {}),
      scopedTokens: options.scopedToken,
      faults,
      exportDelaySeconds: options.exportDelay,
      linkTtlSeconds: options.linkTtl,
      oauth: { clientSecret: options.oauthClientSecret, redirectUris: options.oauthRedirectUri },
      webhooks: {
        ...(options.webhookBackoff !== undefined ? { backoffMs: options.webhookBackoff } : {}),
        onDelivery: deliveryReport(output.log),
      },
      onError: (error) => output.log(`sandbox: ${error instanceof Error ? error.message : String(error)}\n`),
    });
  } catch (error) {
    const { NetworkError } = await import('../api/errors.js');
    const code = (error as { code?: string }).code;
    const reason = code === 'EADDRINUSE' ? 'the port is in use (try --port 0)' : (error as Error).message;
    throw new NetworkError('other', `Cannot start the sandbox on ${options.host}:${options.port}: ${reason}`);
  }
  // Listening on every address is fine, but clients should be pointed at this machine's own.
  const url = sandbox.url.replace(/\/\/(0\.0\.0\.0|\[::\])/, '//127.0.0.1');
  output.text(
    [
      `Sandbox store listening on ${url}`,
      `Token: ${sandbox.token}`,
      `Partner app: client id ${PARTNER_APP.client_id}, client secret ${options.oauthClientSecret === undefined ? DEFAULT_CLIENT_SECRET : 'as given'}`,
      `  redirect URIs: ${[...REGISTERED_REDIRECT_URIS, ...(options.oauthRedirectUri ?? [])].join(' ')}`,
      ...(faults ? [`Faults: ${options.faults} (seed ${faults.seed})`] : []),
      faults?.rate === 0
        ? 'Rate limit: none (--faults rate=0)'
        : `Rate limit: ${faults?.rate ?? PLATFORM_RATE_PER_SECOND} requests per second per token, as on the platform${faults?.rate === undefined ? ' (--faults rate=0 lifts it)' : ''}`,
      '',
      'Try it:',
      `  export STORE_ADMIN_BASE_URL=${url}`,
      `  export STORE_ADMIN_TOKEN=${sandbox.token}`,
      '  store-admin exports types',
      '',
      'Stop it with Ctrl-C.',
      '',
    ].join('\n'),
  );
  // The one interrupt mechanism of every command, so SIGTERM ends this run as it ends any (143).
  await new Promise<void>((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true })));
  await sandbox.close();
  output.log('Sandbox stopped.\n');
}

/**
 * The console's line per delivery. A webhook that keeps failing (the seed's webhook points at a
 * host that never resolves) is told once, then again only when it recovers or is switched off.
 */
export function deliveryReport(write: (line: string) => void): (o: DeliveryOutcome) => void {
  const failing = new Set<number>();
  return (o) => {
    const what = `webhook ${o.webhook}: ${o.event_type}`;
    if (o.ok) {
      if (failing.delete(o.webhook)) write(`webhook ${o.webhook} is delivered to again\n`);
      return write(`${what} delivered (${o.status})\n`);
    }
    const reason = `${o.status ?? o.error}`;
    if (o.deactivated) {
      failing.delete(o.webhook);
      return write(`${what} failed (${reason}); webhook ${o.webhook} switched off\n`);
    }
    if (failing.has(o.webhook)) return;
    failing.add(o.webhook);
    write(
      `${what} failed (${reason}), attempt ${o.failures}; will retry. Further failures of webhook ${o.webhook} are not shown ` +
        `until it succeeds or is switched off: store-admin webhooks deliveries --webhook ${o.webhook} --failed lists them\n`,
    );
  };
}
