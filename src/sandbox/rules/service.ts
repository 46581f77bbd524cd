// The store's smaller rules beside the catalogue and the orders: a gift card loaded for its holder
// and deactivated once, a theme's templates kept on the theme, a ticket's conversation kept on
// the ticket, and a new user's type given by the store.
import type { OperationId } from '../../api/operations.js';
import { NOT_FOUND } from '../collections.js';
import type { Rule, RuleContext } from '../engine.js';
import { HttpError } from '../http-error.js';
import type { KindName, Rec } from '../kinds.js';
import { slugOf } from '../seed/catalogue.js';
import { STORE } from '../seed/store-facts.js';
import { buyerOf } from './carts.js';

function found(ctx: RuleContext, kind: KindName): Rec {
  const record = ctx.state.records[kind][String(ctx.params.id)];
  if (!record) throw NOT_FOUND();
  return record;
}

const templatesOf = (theme: Rec): Rec[] => (Array.isArray(theme.templates) ? (theme.templates as Rec[]) : (theme.templates = []));

/** A comment as a ticket keeps it: attachments named by id are the ticket's own files. */
function comment(ctx: RuleContext, ticket: Rec | undefined, body: Record<string, unknown>, files: Rec[] = []): Rec {
  const known = new Map(((ticket?.comments ?? []) as Rec[]).flatMap((c) => (c.attachments as Rec[]) ?? []).map((file) => [file.id, file]));
  const named = ((body.attachments ?? []) as number[]).map((id) => {
    const file = known.get(id);
    if (!file) throw new HttpError(400, { attachments: [`Invalid pk "${id}" - object does not exist.`] });
    return file;
  });
  return {
    id: ctx.next('ticketComment'),
    attachments: [...named, ...files],
    author: body.author ?? null,
    body: body.body ?? null,
    created_at: ctx.now,
    from_email: body.from_email ?? null,
    is_public: body.is_public ?? true,
  };
}

/** A new ticket, with its first comment if there is one. */
function openTicket(ctx: RuleContext, fields: Record<string, unknown>, first: Rec | undefined): Rec {
  const id = ctx.next('tickets');
  const ticket: Rec = {
    id,
    assignee: null,
    channel: 'api',
    comments: first ? [first] : [],
    created_at: ctx.now,
    updated_at: ctx.now,
    from_email: null,
    order: '',
    priority: 'medium',
    products: [],
    requester: null,
    status: 'new',
    subject: '',
    tags: [],
    ticket_type: null,
    ...fields,
  };
  ctx.state.records.tickets[String(id)] = ticket;
  ctx.emit('ticket.created', ticket);
  return ticket;
}

/** A ticket's first or next comment, sent with the ticket, joins its conversation. */
const commented: Rule = (ctx) => {
  const { comment: said, ...rest } = (ctx.body ?? {}) as { comment?: Record<string, unknown> };
  ctx.body = rest;
  if (said) {
    const ticket = found(ctx, 'tickets');
    ticket.comments = [...((ticket.comments ?? []) as Rec[]), comment(ctx, ticket, said)];
  }
  return ctx.generic();
};

export const serviceRules: Partial<Record<OperationId, Rule>> = {
  giftCardsCreate: (ctx) => {
    const { user: holder, ...given } = ctx.body as Record<string, unknown>;
    const id = ctx.next('giftCards');
    const card: Rec = {
      id,
      user_id: buyerOf(ctx, holder as Record<string, unknown> | undefined).id,
      currency: String(given.currency).toUpperCase(),
      initial: given.initial,
      balance: given.initial,
      created_at: ctx.now,
      updated_at: ctx.now,
      disabled_at: null,
      expired_at: given.expired_at ?? null,
      // The last digits of the code printed on the card.
      last_four: String(4000 + ((id * 7919) % 6000)).slice(-4),
    };
    ctx.state.records.giftCards[String(id)] = card;
    return ctx.answer(card);
  },
  giftCardsPartialUpdate: (ctx) => {
    const { user: holder, ...given } = ctx.body as Record<string, unknown>;
    ctx.body = { ...given, ...(holder ? { user_id: buyerOf(ctx, holder as Record<string, unknown>).id } : {}) };
    return ctx.generic();
  },
  giftCardsDeactivate: (ctx) => {
    const card = found(ctx, 'giftCards');
    if (card.disabled_at) throw new HttpError(400, { detail: `Gift card ${ctx.params.id} is already deactivated.` });
    card.disabled_at = ctx.now;
    card.updated_at = ctx.now;
    return ctx.answer(card);
  },

  themesTemplatesRetrieve: (ctx) => {
    const template = templatesOf(found(ctx, 'themes')).at(-1);
    if (!template) throw NOT_FOUND();
    return ctx.answer(template);
  },
  // One template per name: sending it again replaces it.
  themesTemplatesCreate: (ctx) => {
    const theme = found(ctx, 'themes');
    const template: Rec = { content: '', ...ctx.body, theme: theme.id };
    template.file ??= `${STORE.cdn}/themes/${slugOf(String(theme.name))}/${String(template.name)}`;
    theme.templates = [...templatesOf(theme).filter((kept) => kept.name !== template.name), template];
    return ctx.answer(template);
  },
  themesTemplatesDestroy: (ctx) => {
    const theme = found(ctx, 'themes');
    if (templatesOf(theme).length === 0) throw NOT_FOUND();
    theme.templates = [];
    return undefined;
  },

  ticketsCreate: (ctx) => {
    const { comment: said, ...fields } = (ctx.body ?? {}) as Record<string, unknown>;
    return ctx.answer(openTicket(ctx, fields, said ? comment(ctx, undefined, said as Record<string, unknown>) : undefined));
  },
  ticketsUpdate: commented,
  ticketsPartialUpdate: commented,
  ticketsCommentsRetrieve: (ctx) => ctx.answer(found(ctx, 'tickets')),
  ticketsCommentsCreate: (ctx) => {
    const ticket = found(ctx, 'tickets');
    ticket.comments = [...((ticket.comments ?? []) as Rec[]), comment(ctx, ticket, ctx.body ?? {})];
    ticket.updated_at = ctx.now;
    ctx.emit('ticket.updated', ticket);
    return ctx.answer(ticket);
  },
  // The reference answers an upload with a ticket: the file opens one, in its first comment.
  ticketsAttachmentsCreate: (ctx) => {
    const id = ctx.next('attachment');
    const file = { id, file: `${STORE.cdn}/tickets/attachment-${id}`, file_name: `attachment-${id}` };
    return ctx.answer(openTicket(ctx, {}, comment(ctx, undefined, {}, [file])));
  },

  // Someone the API adds is a customer (leads come from checkouts, staff from the dashboard).
  usersCreate: (ctx) => {
    ctx.body = { ...ctx.body, user_type: 'customer' };
    return ctx.generic();
  },
};
