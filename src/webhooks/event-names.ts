// Event names a webhook subscribes to, checked against the platform's published list: a typo such
// as `order.craeted` would otherwise subscribe to nothing, silently. Names the platform adds later
// pass with --allow-unknown-event.
import { WEBHOOK_EVENTS } from '../api/enums.js';
import { nearest } from '../fields/nearest.js';

export const ALLOW_UNKNOWN_EVENT = '--allow-unknown-event';

const known = new Set<string>(WEBHOOK_EVENTS);

/** Why `name` is refused, with the nearest published name; undefined when it is published. */
export function unknownEvent(name: string): string | undefined {
  if (known.has(name)) return undefined;
  const guess = nearest(name, WEBHOOK_EVENTS);
  return `unknown event ${JSON.stringify(name)}${guess ? `; did you mean ${guess}?` : ''} (${ALLOW_UNKNOWN_EVENT} accepts names the platform added after this version)`;
}
