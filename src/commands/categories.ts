// `store-admin categories …`: what the table's commands for categories need beyond their facts.
import { refine } from './table-commands.js';

export const refinements = [
  refine({
    operation: 'categoriesRetrieve',
    args: [['id', 'id', 'category id']],
    view: 'category',
    progress: 'Fetching the category…',
    examples: ['store-admin categories get 1', 'store-admin categories get 2 --query name'],
  }),
];
