// The platform's Authorization Code flow (spec §5.2, see the app guide): its two endpoints live on
// the store's own host, beside the API, not under it. The CLI and the sandbox both read them here.
export const AUTHORIZE_PATH = '/oauth2/authorize/';
export const TOKEN_PATH = '/oauth2/token/';
