// The command tree, as a list of groups. Each group module only declares its commands; the
// work behind them is imported when a command runs.
import type { Command } from 'commander';
import type { IO } from '../io.js';
import { registerSandbox } from './sandbox.js';

export type RegisterCommands = (program: Command, io: IO) => void;

export const commandGroups: RegisterCommands[] = [registerSandbox];
