export {
  createClient,
  redactHeaders,
  PreparedCall,
  type CallOptions,
  type ClientOptions,
  type ClientSettings,
  type PreparedRequest,
  type RawRequest,
  type RawResponse,
  type StoreClient,
} from './client.js';
export { loadOperation, loadAllOperations, operationIds, type OperationId, type Operation } from './operations.js';
export type { OperationInput, OperationOutput, OperationParams, OperationQuery } from './types.js';
export * from './errors.js';
export { normalizeStoreUrl } from './url.js';
export { proxyFromEnv, type ProxySettings } from './proxy.js';
export * from './enums.js';
