/** Stands in for a secret value in output. */
export const SECRET_KEYS_MASK = '***';

/**
 * `…wxyz`: the last 4 characters tell tokens apart without giving any away; short ones show
 * nothing. In CI (`CI` set, as every CI system sets it) nothing either: a job's log is kept and
 * read by many, and a pipeline has one token to tell apart.
 */
export function maskToken(token: string, env: NodeJS.ProcessEnv): string {
  return token.length >= 16 && !inCi(env) ? `…${token.slice(-4)}` : SECRET_KEYS_MASK;
}

function inCi(env: NodeJS.ProcessEnv): boolean {
  const ci = env.CI?.trim().toLowerCase();
  return !!ci && ci !== 'false' && ci !== '0';
}
