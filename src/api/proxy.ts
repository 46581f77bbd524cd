// The proxy a user behind a corporate firewall names in the environment, read as curl reads it:
// `https_proxy` for https URLs (`http_proxy` when it is unset), `http_proxy` for http ones,
// `no_proxy` for the hosts reached directly, each also in upper case (the lower-case name wins
// where both are set). A request goes through the proxy by undici's ProxyAgent (./transport.ts);
// everything else, and everything for this machine, goes straight to its host.
import { UsageError } from './errors.js';
import { isLoopbackHost } from './url.js';

export interface ProxySettings {
  /** The proxy for http URLs, `http://proxy.example.com:3128` (credentials may come before the host). */
  httpProxy?: string;
  /** The proxy for https URLs (default: httpProxy). */
  httpsProxy?: string;
  /**
   * Hosts reached directly, separated by commas or spaces: a name matches itself and its
   * subdomains (`example.com` or `.example.com`), an address itself, `:port` narrows an entry to
   * one port, and `*` matches every host.
   */
  noProxy?: string;
}

const VARIABLES = { httpProxy: 'http_proxy', httpsProxy: 'https_proxy', noProxy: 'no_proxy' } as const;

/** The proxy settings of an environment, or undefined when it names no proxy. Throws a UsageError for a value that is not a proxy URL. */
export function proxyFromEnv(env: Readonly<Record<string, string | undefined>>): ProxySettings | undefined {
  const settings: ProxySettings = {};
  for (const [key, name] of Object.entries(VARIABLES) as [keyof ProxySettings, string][]) {
    const value = (env[name] ?? env[name.toUpperCase()])?.trim();
    if (value) settings[key] = key === 'noProxy' ? value : proxyUrl(value, name);
  }
  return settings.httpProxy || settings.httpsProxy ? settings : undefined;
}

/** `proxy.corp:3128` as curl takes it, `http://proxy.corp:3128/`; the value itself is never echoed, as it may hold a password. */
function proxyUrl(value: string, name: string): string {
  const text = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`;
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) {
    throw new UsageError(`${name} (or ${name.toUpperCase()}) is not a proxy URL`, {
      hint: 'Give it as http://proxy.example.com:3128 (with user:password@ before the host if the proxy asks for them)',
    });
  }
  return url.href;
}

/**
 * The proxy a request to `url` goes through, or undefined for none. Never one for this machine:
 * a token may travel in clear text to a loopback store because it stays on the machine, which
 * through a proxy it would not; the embedded sandbox is reached directly too.
 */
export function proxyFor(url: URL, proxy: ProxySettings | undefined): URL | undefined {
  if (!proxy || isLoopbackHost(url.hostname) || bypassed(url, proxy.noProxy)) return undefined;
  const through = (url.protocol === 'https:' && proxy.httpsProxy) || proxy.httpProxy;
  return through ? new URL(through) : undefined;
}

/** Whether NO_PROXY names the URL's host (see ProxySettings.noProxy). */
function bypassed(url: URL, noProxy: string | undefined): boolean {
  if (!noProxy) return false;
  const host = bare(url.hostname);
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return noProxy.split(/[\s,]+/).some((entry) => {
    if (entry === '*') return true;
    // `name`, `name:port`, `1.2.3.4:port`, `[::1]:port`, or an IPv6 address without brackets.
    const [, name = '', only] = /^(\[[^\]]*\]|[^:]*|[^\]]*:[^\]]*:[^\]]*)(?::(\d+))?$/.exec(entry) ?? [];
    const domain = bare(name).replace(/^\*?\./, '');
    if (!domain || (only !== undefined && only !== port)) return false;
    return host === domain || host.endsWith(`.${domain}`);
  });
}

function bare(hostname: string): string {
  return hostname.replace(/^\[|\]$/g, '').toLowerCase();
}
