// `store-admin completion bash|zsh|fish` prints a script that asks the hidden
// `store-admin completion __complete -- WORDS…` for candidates, so every shell completes from the
// live command tree rather than from a copy of it. The scripts pass `--` so the root program
// does not take typed flags such as --json as its own. Where there is nothing to offer (a file,
// an id), each script falls back to the shell's own file name completion.
import { Argument, type Command } from 'commander';
import type { Context } from '../context.js';
import { describeCommand } from './meta.js';

const SHELLS = ['bash', 'zsh', 'fish'] as const;
type Shell = (typeof SHELLS)[number];

const scripts: Record<Shell, string> = {
  // A read loop rather than mapfile: macOS still ships bash 3.2.
  bash: `# store-admin completion for bash: source <(store-admin completion bash)
_store_admin() {
  local line
  COMPREPLY=()
  while IFS= read -r line; do COMPREPLY+=("$line"); done \\
    < <(store-admin completion __complete -- "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null)
}
complete -o default -F _store_admin store-admin
`,
  zsh: `#compdef store-admin
# store-admin completion for zsh: source <(store-admin completion zsh) after compinit, or save
# it as _store_admin in a directory on $fpath
_store_admin() {
  local -a candidates
  candidates=("\${(@f)$(store-admin completion __complete -- "\${(@)words[2,CURRENT]}" 2>/dev/null)}")
  if [[ -n "\${candidates[1]}" ]]; then compadd -- "\${candidates[@]}"; else _files; fi
}
if [[ "\${funcstack[1]}" == _store_admin ]]; then
  _store_admin "$@"
else
  compdef _store_admin store-admin
fi
`,
  // The current token is passed quoted so that an empty one still arrives as a word.
  fish: `# store-admin completion for fish: store-admin completion fish > ~/.config/fish/completions/store-admin.fish
function __store_admin_complete
    set -l words (commandline -opc)
    set -e words[1]
    set -l current (commandline -ct)
    set -l candidates (store-admin completion __complete -- $words "$current" 2>/dev/null)
    if set -q candidates[1]
        printf '%s\\n' $candidates
    else
        __fish_complete_path "$current"
    end
end
complete -c store-admin -f -a '(__store_admin_complete)'
`,
};

export function register(completion: Command, ctx: Context): void {
  describeCommand(
    completion
      .usage('[options] <shell>') // not `[command]`: its one subcommand is hidden
      .addArgument(new Argument('<shell>', 'the shell to print the script for').choices(SHELLS))
      .action((shell: Shell) => {
        ctx.output.text(scripts[shell]);
      }),
    {
      examples: [
        'source <(store-admin completion bash)   # in ~/.bashrc',
        'source <(store-admin completion zsh)    # in ~/.zshrc, after compinit',
        'store-admin completion fish > ~/.config/fish/completions/store-admin.fish',
      ],
    },
  );

  // What the scripts call: the words typed after `store-admin`, the last one being completed.
  completion
    .command('__complete', { hidden: true })
    .description('print completion candidates for the words typed so far, one per line')
    .argument('[words...]')
    .allowUnknownOption()
    .helpOption(false)
    .action(async (words: string[]) => {
      const { candidates } = await import('./complete-words.js');
      ctx.output.text((await candidates(words, ctx)).map((candidate) => `${candidate}\n`).join(''));
    });
}
