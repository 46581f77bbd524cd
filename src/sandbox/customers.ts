// A customer as the platform's customer resource shows one (what `customer.*` events carry): the
// person, when they joined and their addresses. Not an order's `user`, which is a snapshot of the
// buyer at checkout with its IP address and browser.
import type { SandboxState } from './state.js';

type Address = Record<string, unknown> & { id?: unknown };

export function customerObject(state: SandboxState, id: string | number) {
  const found = state.customers[id];
  if (!found) return undefined;
  const { ip: _ip, user_agent: _browser, ...person } = found.user;
  // Every address the customer has bought with, once each (they carry their own ids).
  const addresses = new Map<unknown, Address>();
  for (const order of Object.values(state.orders)) {
    if (order.user?.id !== found.user.id) continue;
    for (const address of [order.billing_address, order.shipping_address]) {
      if (address && !addresses.has(address.id)) addresses.set(address.id, structuredClone(address) as Address);
    }
  }
  return { ...person, date_joined: found.joined ?? null, addresses: [...addresses.values()] };
}
