// The hint after a 403: the scopes the operation needs, and for a partner app's login whether
// its grant has them.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/errors.js';
import { addHint } from '../../src/run/auth-hint.js';

const forbidden = () => new ApiError(403, { detail: 'no' }, 'no');
const grant = (scopes: string[]) => ({ profile: 'shop', clientId: 'my-app', scopes });
/** Spec 4.9: both scopes are needed. */
const both = { scopes: ['fulfillment_service:write', 'fulfillment_orders:write'], allScopes: true };

describe('addHint after a 403', () => {
  it('names the scopes for a dashboard token', () => {
    const error = forbidden();
    addHint(error, both);
    expect(error.hint).toBe('This command needs a token with the scopes fulfillment_service:write and fulfillment_orders:write');
  });

  it('says which are missing from an app login, and how to ask for them', () => {
    const error = forbidden();
    addHint(error, both, grant(['fulfillment_orders:write']));
    expect(error.hint).toBe(
      'This command needs a token with the scopes fulfillment_service:write and fulfillment_orders:write; the app login of profile "shop" was granted ' +
        'fulfillment_orders:write, without fulfillment_service:write. Log in again and approve it: store-admin auth login --app --client-id my-app --profile shop',
    );
  });

  it('names either scope where any one of them grants the call', () => {
    const error = forbidden();
    addHint(error, { scopes: ['orders:read', 'orders:write'], allScopes: false }, grant(['users:read']));
    expect(error.hint).toBe(
      'This command needs a token with the scope orders:read or orders:write; the app login of profile "shop" was granted ' +
        'users:read, without orders:read or orders:write. Log in again and approve it: store-admin auth login --app --client-id my-app --profile shop',
    );
  });

  it('says when the grant has them (admin:write covers every write scope)', () => {
    const error = forbidden();
    addHint(error, { scopes: ['orders:write'], allScopes: false }, grant(['admin:write']));
    expect(error.hint).toBe(
      'This command needs a token with the scope orders:write; the app login of profile "shop" was granted it, so the store refused for another reason (was the app\'s access changed?)',
    );
  });
});
