// The typed library: `import { createClient } from 'store-admin'`. Loads no CLI code.
export * from './api/index.js';
