// The typed library: `import { createClient } from 'store-admin'`. Loads no CLI code.
export * from './api/index.js';
export { verifyWebhookSignature, WEBHOOK_SIGNATURE_HEADER, type WebhookSignatureCheck } from './api/webhook-signature.js';
