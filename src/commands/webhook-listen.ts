// `store-admin webhooks listen`: declared here, run by src/webhooks/listen.ts.
import { InvalidArgumentError, type Command } from 'commander';
import type { Context } from '../context.js';
import { addFlags, type FlagTable } from '../options.js';
import { localAction } from './local.js';
import { describeCommand } from './meta.js';
import { collect, secretFrom } from '../fields/values.js';

function port(value: string): number {
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65535) throw new InvalidArgumentError('takes 0 to 65535');
  return Number(value);
}

export function localUrl(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError(`takes a URL such as http://localhost:3000/webhooks (got "${value}")`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidArgumentError('takes an http(s) URL');
  return url;
}

const LISTEN_FLAGS = {
  port: { flags: '--port <port>', help: 'port to listen on (0, the default, picks a free one)', parse: port },
  forwardTo: {
    flags: '--forward-to <url>',
    help: "pass each delivery, body and headers untouched, to this URL and answer with the app's status; with --secret-file only those that verify, each event once",
    parse: localUrl,
  },
  forwardUnverified: { flags: '--forward-unverified', help: 'with --secret-file and --forward-to, forward deliveries whose signature does not verify too' },
  secretFile: { flags: '--secret-file <file>', help: "check signatures with the webhook's secret read from a file (- for standard input)" },
  event: { flags: '--event <name>', help: 'show and forward only this event (repeatable); with --register, subscribe to it', parse: collect },
  register: {
    flags: '--register',
    help: 'create a webhook pointing here (with a generated secret, saved in a file it names, unless --secret-file); removed on exit, and one a killed listen left behind is removed first',
  },
  publicUrl: {
    flags: '--public-url <url>',
    help: 'register this public address of a tunnel (ngrok, cloudflared) to the listener instead of 127.0.0.1: a real store cannot reach this machine otherwise (implies --register)',
    parse: localUrl,
  },
} as const satisfies FlagTable;

export function registerListen(webhooks: Command, ctx: Context): void {
  const command = addFlags(
    webhooks.command('listen').description('Receive webhook deliveries on 127.0.0.1: show each one, check its signature, forward it to a local app'),
    LISTEN_FLAGS,
  )
    .action(
      localAction<typeof LISTEN_FLAGS>(ctx, async (ctx, opts) => {
        const { listen } = await import('../webhooks/listen.js');
        if (opts.forwardUnverified && (opts.forwardTo === undefined || opts.secretFile === undefined)) {
          throw new (await import('../api/errors.js')).UsageError('--forward-unverified goes with --forward-to and --secret-file');
        }
        const secret = opts.secretFile === undefined ? undefined : await secretFrom(String(opts.secretFile), '--secret-file', ctx.io);
        await listen(
          ctx,
          { port: opts.port ?? 0, forwardTo: opts.forwardTo, secret, events: opts.event ?? [], register: !!opts.register, forwardUnverified: !!opts.forwardUnverified, ...(opts.publicUrl ? { publicUrl: opts.publicUrl } : {}) },
          ctx.signal,
        );
      }),
    );
  describeCommand(command, {
    examples: [
      'store-admin --sandbox webhooks listen --register',
      'store-admin webhooks listen --port 4242 --secret-file secret.txt --forward-to http://localhost:3000/webhooks',
      'store-admin --sandbox webhooks listen --register --event order.created --json > deliveries.jsonl',
      'store-admin webhooks listen --public-url https://abc123.ngrok.app --forward-to http://localhost:3000/webhooks',
    ],
  });
}
