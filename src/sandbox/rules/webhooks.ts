// Webhooks: the store delivers for real, so a target must be reachable as the platform would reach
// it; a deleted webhook's queued deliveries go with it.
import type { OperationId } from '../../api/operations.js';
import type { Rule, RuleContext } from '../engine.js';
import { outbox } from '../events.js';
import { HttpError } from '../http-error.js';

/** The sandbox delivers for real: plain http only to this machine, never across a network. */
export function checkDeliveryTarget(target: string) {
  const url = new URL(target);
  const loopback = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i.test(url.hostname);
  if (url.protocol === 'http:' && !loopback) {
    throw new HttpError(400, { target: ['The sandbox delivers over http:// only to this machine (localhost, 127.0.0.1, [::1]); use https:// elsewhere.'] });
  }
}

/** A new webhook starts with no warnings and no check pending. */
const creating: Rule = (ctx) => {
  checkDeliveryTarget(ctx.body.target);
  ctx.body = { active: true, api_version: null, name: null, secret_key: null, ...ctx.body, warning_count: 0, next_check_date: null };
  return ctx.generic();
};

const changing: Rule = (ctx: RuleContext) => {
  if (ctx.body.target !== undefined) checkDeliveryTarget(ctx.body.target);
  return ctx.generic();
};

/**
 * The platform filters webhooks by the ids of its events, which it does not publish (a webhook
 * answers its events by name): no id is known here, so each is refused as the framework refuses an
 * id it does not have, rather than matching nothing.
 */
const listing: Rule = (ctx) => {
  const [unknown] = (ctx.query.events as unknown[] | undefined) ?? [];
  if (unknown !== undefined) throw new HttpError(400, { events: [`Select a valid choice. ${String(unknown)} is not one of the available choices.`] });
  return ctx.generic();
};

export const webhookRules: Partial<Record<OperationId, Rule>> = {
  webhooksList: listing,
  webhooksCreate: creating,
  webhooksUpdate: changing,
  webhooksPartialUpdate: changing,
  webhooksDestroy: (ctx) => {
    const answer = ctx.generic();
    // Deliveries still queued for it have nowhere to go.
    ctx.state.webhookOutbox = outbox(ctx.state).filter((d) => d.webhook !== Number(ctx.params.id));
    return answer;
  },
};
