import type { Link, LinkChanges, LinkInput, LinkQuery, SavedLink } from '@linkpix/sdk';
import { optionalWhole, tags, text, whole, type Command, type Context } from '../command.js';
import { domainId } from '../domain-choice.js';
import { UsageError } from '../exit-codes.js';
import { clip, fields, json, table } from '../output.js';

/** The fields a create or edit takes from flags, by the API's names. */
const LINK_FLAGS = {
  alias: { type: 'string' },
  title: { type: 'string' },
  tag: { type: 'string', multiple: true },
} as const;

function linkFields(link: Link): string {
  return fields([
    ['id', String(link.id)],
    ['short url', link.short_url],
    ['destination', link.url],
    ['title', link.title ?? ''],
    ['tags', link.tags.join(', ')],
    ['clicks', String(link.clicks)],
    ['health', link.health.status],
    ['disabled', link.disabled ? 'yes' : 'no'],
    ['created', link.created_at],
  ]);
}

function show(context: Context, link: Link, readable = linkFields(link)): void {
  context.io.out(context.flags.json ? json(link) : readable);
}

/** What the API found odd in a saved link, on standard error: the answer on standard output stays the link. */
function warn(context: Context, link: SavedLink): void {
  for (const { field, message } of link.warnings) context.io.err(`warning: ${field}: ${message}`);
}

const id = (context: Context) => whole(context.args[0] ?? '', 'ID');

export const shorten: Command = {
  synopsis: 'shorten URL [--alias A] [--domain HOST|ID] [--tag T]… [--title T]',
  summary: 'create a short link; prints it',
  options: { ...LINK_FLAGS, domain: { type: 'string' } },
  args: ['URL'],
  async run(context) {
    const input: LinkInput = { url: context.args[0] ?? '' };
    for (const name of ['alias', 'title'] as const) {
      const value = text(context.flags, name);
      if (value !== undefined) input[name] = value;
    }
    const domain = text(context.flags, 'domain');
    if (domain !== undefined) input.domain = await domainId(context.client(), domain);
    const named = tags(context.flags);
    if (named) input.tags = named;
    const link = await context.client().links.create(input);
    warn(context, link);
    // The short URL alone, so that `$(linkpix shorten …)` is the link.
    show(context, link, link.short_url);
  },
};

export const linksList: Command = {
  synopsis: 'links list [--search S] [--tag T] [--per-page N] [--page N] [--all]',
  summary: 'the links, newest first',
  options: {
    search: { type: 'string' },
    tag: { type: 'string' },
    'per-page': { type: 'string' },
    page: { type: 'string' },
    all: { type: 'boolean' },
  },
  args: [],
  async run(context) {
    const query: LinkQuery = {};
    const search = text(context.flags, 'search');
    const tag = text(context.flags, 'tag');
    if (search !== undefined) query.search = search;
    if (tag !== undefined) query.tag = tag;
    const perPage = optionalWhole(context.flags, 'per-page');
    if (perPage !== undefined) query.per_page = perPage;
    const page = optionalWhole(context.flags, 'page');
    if (page !== undefined) query.page = page;
    const links = context.client().links;
    let shown: Link[];
    let footer: string;
    if (context.flags.all) {
      shown = [];
      for await (const link of links.list(query)) shown.push(link);
      footer = `${shown.length} links`;
    } else {
      const answer = await links.page(query);
      shown = answer.data;
      footer = `page ${answer.meta.current_page} of ${answer.meta.last_page}, ${answer.meta.total} links`;
    }
    if (context.flags.json) return context.io.out(json(shown));
    const rows = shown.map((l) => [String(l.id), l.short_url, String(l.clicks), clip(l.url, 60), l.tags.join(', ')]);
    context.io.out(`${table(['ID', 'SHORT URL', 'CLICKS', 'DESTINATION', 'TAGS'], rows)}\n\n${footer}`);
  },
};

export const linksGet: Command = {
  synopsis: 'links get ID',
  summary: 'one link',
  options: {},
  args: ['ID'],
  async run(context) {
    show(context, await context.client().links.get(id(context)));
  },
};

export const linksEdit: Command = {
  synopsis: 'links edit ID [--url U] [--alias A] [--title T] [--tag T]…',
  summary: 'change what the flags name',
  options: { ...LINK_FLAGS, url: { type: 'string' } },
  args: ['ID'],
  async run(context) {
    const changes: LinkChanges = {};
    for (const name of ['url', 'alias', 'title'] as const) {
      const value = text(context.flags, name);
      if (value !== undefined) changes[name] = value;
    }
    const named = tags(context.flags);
    if (named) changes.tags = named;
    if (Object.keys(changes).length === 0)
      throw new UsageError('links edit needs a change: --url, --alias, --title or --tag');
    const link = await context.client().links.update(id(context), changes);
    warn(context, link);
    show(context, link);
  },
};

export const linksDelete: Command = {
  synopsis: 'links delete ID',
  summary: 'delete a link',
  options: {},
  args: ['ID'],
  async run(context) {
    const deleted = await context.client().links.delete(id(context));
    context.io.out(context.flags.json ? json(deleted) : `Deleted link ${deleted.id}.`);
  },
};
