export { createClient, redactHeaders, type ClientOptions, type StoreClient, type PreparedRequest } from './client.js';
export { operations, operationIds, type OperationId, type Operation } from './operations.js';
export type { OperationInput, OperationOutput, OperationParams, OperationBody } from './types.js';
export * from './errors.js';
export { normalizeStoreUrl } from './url.js';
export * from './enums.js';
