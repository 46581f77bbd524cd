// What to do after the store refused the token (401) or the work (403): the hint an error carries.
import type { ApiError } from '../api/errors.js';
import { missingScopes } from '../api/scopes.js';
import type { Grant } from '../connect.js';
import type { Operation } from '../api/operations.js';

/**
 * What to do about an authentication or permission failure. A 403 names the scopes the operation
 * needs and, for a partner app's login, whether its grant has them.
 */
export function addHint(error: ApiError, op: Pick<Operation, 'scopes' | 'allScopes'>, grant?: Grant) {
  const { scopes } = op;
  const joined = scopes.join(op.allScopes ? ' and ' : ' or ');
  if (error.status === 401) {
    error.hint = 'The store rejected the token: set STORE_ADMIN_TOKEN to a valid one, or run: store-admin auth login';
  } else if (error.status === 403) {
    const needs = scopes.length > 0 ? `This command needs a token with the scope${scopes.length > 1 && op.allScopes ? 's' : ''} ${joined}` : 'The token is not allowed to do this';
    if (!grant || scopes.length === 0) return void (error.hint = needs);
    const missing = missingScopes(grant.scopes, op);
    const granted = grant.scopes.length > 0 ? grant.scopes.join(' ') : 'no scope';
    error.hint =
      missing.length > 0
        ? `${needs}; the app login of profile "${grant.profile}" was granted ${granted}, without ${missing.join(op.allScopes ? ' and ' : ' or ')}. ` +
          `Log in again and approve ${missing.length > 1 && op.allScopes ? 'them' : 'it'}: store-admin auth login --app --client-id ${grant.clientId} --profile ${grant.profile}`
        : `${needs}; the app login of profile "${grant.profile}" was granted ${scopes.length > 1 ? 'them' : 'it'}, so the store refused for another reason (was the app's access changed?)`;
  }
}
