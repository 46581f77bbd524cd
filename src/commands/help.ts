// `store-admin help [topic | command…]`: the topics below, or any command's help.
import type { Command } from 'commander';
import { UsageError } from '../api/errors.js';
import type { Context } from '../context.js';
import { formatGlobalFlags, helpWidth, wrapTopic } from '../output/help-layout.js';
import { DEFAULT_EXPORT_DELAY_SECONDS } from '../sandbox/settings.js';
import { metaOf } from './meta.js';

export const HELP_TOPICS: Record<string, string> = {
  environment: `Environment variables

  STORE_ADMIN_TOKEN        API token (beats the active profile's, not one named with --profile);
                           sent only to STORE_ADMIN_BASE_URL's store when that is set
  STORE_ADMIN_BASE_URL     store URL, e.g. https://shop.example.com (same as --base-url)
  STORE_ADMIN_PROFILE      profile to use (same as --profile)
  STORE_ADMIN_CONFIG_DIR   where profiles and the embedded sandbox's state are kept (default:
                           $XDG_CONFIG_HOME/store-admin or ~/.config/store-admin on Linux,
                           ~/Library/Preferences/store-admin on macOS, %APPDATA%\\store-admin\\Config
                           on Windows)
  STORE_ADMIN_SANDBOX      1 runs every command against the embedded sandbox (same as --sandbox);
                           0 or empty does not; any value not clearly on or off is refused
  STORE_ADMIN_SANDBOX_EXPORT_DELAY  seconds a new export of the embedded sandbox stays pending
                                    (default ${DEFAULT_EXPORT_DELAY_SECONDS})
  STORE_ADMIN_MAX_RESPONSE_MB  largest answer read from the store, in MB (default 64);
                               export downloads stream to disk and have no limit
  HTTPS_PROXY              proxy for https URLs, http://[user:password@]host:port (https_proxy
                           wins where both are set); the request is tunnelled (CONNECT), so the
                           proxy relays what it cannot read
  HTTP_PROXY               proxy for http URLs, and for https ones when HTTPS_PROXY is not set
                           (http_proxy wins where both are set)
  NO_PROXY                 hosts reached directly (or no_proxy), separated by commas: a name and
                           its subdomains, an address, host:port, or * for all. This machine
                           (localhost, 127.x, ::1) is never reached through a proxy
  STORE_ADMIN_CLIENT_SECRET  a partner app's client secret, for auth login --app
  STORE_ADMIN_LOGIN_WAIT   seconds auth login --app waits for the store's answer (default 300)
  BROWSER                  command that opens the consent page for auth login --app (the URL is
                           its one added argument; default: xdg-open, open or start)
  STORE_ADMIN_DEBUG        set (e.g. to 1) to add the stack trace to any error
  STORE_ADMIN_PAGER        pager for long output on a terminal (beats PAGER; empty: none)
  PAGER                    pager when STORE_ADMIN_PAGER is not set (default: less -FRX if installed)
  COLUMNS                  width of a table forced into a pipe with -o table (default 80)
  GITHUB_OUTPUT            set by GitHub Actions: exports and webhooks apply append their
                           results there as step outputs (docs/ci.md)
  GITHUB_STEP_SUMMARY      set by GitHub Actions: they append a short Markdown summary there,
                           and a failure its exit code, message and hint
  GITHUB_ACTIONS           true on GitHub Actions: an error is also printed as an ::error
                           annotation
  CI                       set by CI systems: a token never shows its last 4 characters (***)
  NO_COLOR                 set to anything to disable colour
  FORCE_COLOR              1, 2 or 3 forces colour even when output is not a terminal

Flags win over the environment, which wins over the active profile: --base-url beats
everything, a profile named with --profile beats STORE_ADMIN_BASE_URL and STORE_ADMIN_TOKEN, and
those beat the profile chosen by STORE_ADMIN_PROFILE or the active one. A profile that
STORE_ADMIN_PROFILE names but that does not exist is an error only when something would come from
it: with STORE_ADMIN_TOKEN and the store (STORE_ADMIN_BASE_URL or --base-url) given, it is unused.
--sandbox (or STORE_ADMIN_SANDBOX) beside --base-url or --profile is refused (exit 2).

A token goes only to the store it came with: a profile's to that profile's store, and
STORE_ADMIN_TOKEN, when STORE_ADMIN_BASE_URL is set, to that store alone (another store gets no
token: exit 4). STORE_ADMIN_TOKEN set without STORE_ADMIN_BASE_URL goes to the store in use.
`,
  'exit-codes': `Exit codes

  0    success
  1    the store answered with an error, could not be reached, or its answer was unreadable;
       or webhooks apply found two store webhooks with a name the file declares, or another
       apply running for the same store; or a --resume found its run held by another process
       (nothing was sent); or stdout could not be written (a full disk): the output is incomplete
  2    usage or validation error (bad flags, arguments or input), or a declined confirmation:
       nothing was sent
  4    authentication or permission: no store or token configured (or only one that belongs to
       another store), the store answered 401 or 403, or it refused a partner app's login
       (auth login --app)
  5    timed out waiting (--wait-timeout): what was waited for goes on, and the message says how
       to finish later (exports download ID --wait)
  130  interrupted (Ctrl-C); for a change, it may or may not have been applied
  141  stdout's reader went away (| head) while the run still had work to do: an --each run
       starts no new line and says how to resume, as for 130; a command that only had output
       left to print ends quietly with its own code
  143  stopped by SIGTERM (a cancelled CI job, kill), whatever the command, a sandbox or a
       listener included; for a change, as for 130

Once a change has gone through, nothing that follows exits 2: a failure after it is exit 1, and
the message says what was created. On GitHub Actions (GITHUB_ACTIONS=true) an error is also
printed on stderr as an ::error annotation.

When JSON output is asked for by name (--json, -o json or -o ndjson), a failure also prints a
JSON error object on stderr, after the one-line message:
  {"error": {"message": "...", "exitCode": 1, "status": 404, "type": "ApiError"}}
Without those flags, a pipe gets the one-line message (and any hint) alone; stdout stays empty.

Changes that cannot be undone: a command that removes, ends or refuses something, or bills a
customer, asks first at a terminal; without one (a script, CI, --no-input) it refuses with exit 2
and sends nothing unless --yes is given. Additions (notes, disputes, webhooks, exports) and changes
another command sets back (other fields, app settings, a token given again with auth login) do
not ask; sandbox reset and webhooks trigger touch only the sandbox. These commands ask:
`,
  formatting: `Output formats

Tables are printed when stdout is a terminal; JSON otherwise.
  --json               print the JSON the store answered (pretty on a terminal, compact in a pipe)
  -o, --output table   force a table even in a pipe
  -o, --output ndjson  one JSON record per line: each item of a list (the types of exports
                       types, the lines of history show), each record of every page with api
                       --paginate (printed as pages arrive), each line of --each
  -o, --output csv     a header row, then a row per record (RFC 4180 quoting); tsv the same
                       with tabs, tabs and line breaks inside a value escaped as \\t and \\n
  --columns PATHS      the columns of csv, tsv and tables, as dotted paths such as
                       id,user.email,lines.0.sku; the JSON formats keep only those fields
  --csv-raw            cells as sent: otherwise text a spreadsheet would run as a formula
                       (starting with =, +, - or @, but not a number such as -12.50) is
                       written with a leading ' (which --each reads back off), and control
                       characters as escapes (\\u001b), as in tables; either way, no line
                       of a cell starts a CI runner's command (::name::)
  -q, --query EXPR     filter the JSON with a JMESPath expression (https://jmespath.org, not
                       jq: 'types[0]', not '.types[0]'), e.g. --query 'lines[].{id: id, sku: sku}';
                       the result is JSON, or a table with -o table; with --dry-run, it
                       filters the request shown (--dry-run -q url --raw prints the URL)
  --raw                print a string result bare, a list of strings or numbers one per line
  --no-color           no colour (also NO_COLOR); FORCE_COLOR=1 forces it

Tables fit the terminal's width (a table forced into a pipe: COLUMNS, else 80): long cells wrap
at words, and no word is cut: a column keeps its longest word (an id) whole while the table can
fit so, history leaves out its store column first, and only a word wider than the room is broken
across lines. Nested values are summarised (--json shows them whole). On a terminal, JSON is
coloured and output longer than the screen goes through a pager: STORE_ADMIN_PAGER, else PAGER, else
less -FRX when installed; an empty value or cat turns it off.

A list shows one page; stderr says how to get more: --all follows the pages to the end and
--limit N stops after N records, printing each page as it arrives (at the platform's 4 requests a
second), and --cursor starts at the page a note names. As JSON a list is the page the store
answered, {next, previous, results}; followed to the end, one page holding every record. A
list's CSV feeds --each as it is:
  store-admin subscriptions list --status past_due \\
    --all -o csv --columns id |
  store-admin subscriptions cancel --each - \\
    --reason other --yes

Data goes to stdout; progress, warnings and errors go to stderr. Secrets the store sends back
(a webhook's secret_key) are masked unless --show-secret is given.
`,
};

export function registerHelp(program: Command, { io, output }: Context): void {
  program.helpCommand(false);
  program
    .command('help [name...]')
    .description(`show help for a command, or a topic: flags, ${Object.keys(HELP_TOPICS).join(', ')}`)
    .action(async (names: string[]) => {
      const [first] = names;
      if (first === 'flags' && names.length === 1) {
        // Made from the options themselves, so it cannot drift from them.
        const helper = program.createHelp();
        helper.prepareContext({ helpWidth: program.configureOutput().getOutHelpWidth?.() });
        await output.page(formatGlobalFlags(program, helper));
        return;
      }
      if (first && names.length === 1 && HELP_TOPICS[first]) {
        await output.page(wrapTopic(helpTopic(first, program), helpWidth(io.stdout)));
        return;
      }
      let command: Command = program;
      for (const name of names) {
        const next = command.commands.find((c) => c.name() === name || c.aliases().includes(name));
        if (!next) throw new UsageError(`No command or help topic "${names.join(' ')}"`, { hint: 'Run: store-admin --help' });
        command = next;
      }
      await metaOf(command)?.prepare?.();
      // outputHelp, not helpInformation: it keeps the examples, scope and version shown after it.
      command.outputHelp();
    });
}

/** A topic's text; `exit-codes` ends with the commands that confirm, read from the tree so the list cannot drift. */
export function helpTopic(name: string, program: Command): string {
  return name === 'exit-codes' ? `${HELP_TOPICS[name]}${confirmingCommands(program)}` : HELP_TOPICS[name]!;
}

function confirmingCommands(program: Command): string {
  const lines: string[] = [];
  const walk = (command: Command, path: string[]) => {
    const confirms = metaOf(command)?.confirms;
    if (confirms) lines.push(`  ${[...path, command.name()].join(' ')}${confirms.when ? `  ${confirms.when}` : ''}`);
    for (const sub of command.commands) walk(sub, [...path, command.name()]);
  };
  for (const command of program.commands) walk(command, []);
  return `${lines.join('\n')}\n`;
}
