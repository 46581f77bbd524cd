// `store-admin categories …`
import type { Command } from 'commander';
import type { Context } from '../context.js';
import { addOperationCommand } from './define.js';

export function register(categories: Command, ctx: Context): void {
  addOperationCommand(categories, ctx, {
    name: 'get',
    operation: 'categoriesRetrieve',
    args: [['id', 'id', 'category id']],
    view: 'category',
    progress: 'Fetching the category…',
    examples: ['store-admin categories get 1', 'store-admin categories get 2 --query name'],
  });
}
