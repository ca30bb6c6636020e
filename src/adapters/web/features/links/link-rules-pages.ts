import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { LinkView } from '../../../../core/links/link.ts';
import {
  FieldErrorBag,
  TooManyAttemptsError,
  ValidationError,
  type FieldErrors,
} from '../../../../core/shared/errors.ts';
import { messages } from '../../../../core/shared/messages.ts';
import { isValidDate, isValidTime, zonedDateTimeToEpochMs } from '../../../../core/expiration/ends-at.ts';
import { parseAcceptLanguage } from '../../../../core/targeting/accept-language.ts';
import { PLATFORMS } from '../../../../core/targeting/target.ts';
import { ruleWarnings } from '../../../../core/rules/rule-warnings.ts';
import type { Visitor } from '../../../../core/redirect/visitor.ts';
import { PREVIEW_DAYS_DEFAULT } from '../../../../core/rules/rule-preview.ts';
import { IdParams } from '../../../shared/schemas/common.ts';
import { shortUrl } from '../../../shared/presenters/link-record.ts';
import { appLayout } from '../../ui/layout.ts';
import { seeOther, sendView } from '../../app/respond.ts';
import { setFlash, viewOf, viewerOf } from '../../app/view.ts';
import type { WebFeature } from '../feature.ts';
import type { WebContext } from '../../app/web-context.ts';
import { refuseBadParams } from './link-params.ts';
import { rulesPage, VISITOR_FIELDS, type RulesPage, type VisitorFields } from './link-rules-view.ts';
import { RULE_LIMITS } from '../../../../core/rules/rule.ts';
import { applyRowAction, rowsOfForm, rowsToRules, rulesToRows, type RuleRow } from './link-rules-rows.ts';
import { webActor } from '../../app/audit-actor.ts';

const text = (source: unknown, name: string): string => {
  const value = source && typeof source === 'object' ? (source as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' ? value : '';
};

const storedText = (view: LinkView) => (view.link.rules === null ? '' : JSON.stringify(view.link.rules, null, 2));

/** Which text a preview was of: "Save" after it saves without showing the same preview again. */
const fingerprint = (rules: string) => createHash('sha256').update(rules.trim()).digest('base64url').slice(0, 22);

function renderRules(
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: WebContext,
  status: number,
  view: LinkView,
  page: Omit<RulesPage, 'id' | 'shortUrl' | 'targeting' | 'warnings' | 'rows' | 'editor'> &
    Partial<Pick<RulesPage, 'rows' | 'editor'>>,
) {
  const v = viewOf(request, reply, ctx.web.csrfSecret);
  const url = shortUrl(view, ctx.urls);
  const main = rulesPage(v, {
    ...page,
    id: view.link.id,
    shortUrl: url,
    targeting: view.link.rules === null && view.link.targetType !== 0,
    warnings: ruleWarnings(view.link.rules),
    rows: page.rows ?? rulesToRows(view.link.rules),
    editor: page.editor ?? 'rows',
  });
  return sendView(reply, status, appLayout(v, { title: v.t.rules.pageTitle(url), section: '/links', main }));
}

/** GET: the rules as stored, and with `test=1` the visitor panel's answer (which rule, which destination). */
async function showRules(request: FastifyRequest, reply: FastifyReply, ctx: WebContext) {
  refuseBadParams(request);
  const { workspace: account } = viewerOf(request);
  const link = await ctx.links.get(account.id, (request.params as IdParams).id);
  const visitor = visitorFieldsOf(request.query);
  if (text(request.query, 'test') !== '1')
    return renderRules(request, reply, ctx, 200, link, { text: storedText(link), visitor });
  const bag = new FieldErrorBag();
  const probe = probeOf(visitor, account.timezone, bag);
  if (probe === null)
    return renderRules(request, reply, ctx, 422, link, { text: storedText(link), visitor, errors: errorsOf(bag) });
  const explained = await ctx.rules.explainer.explain(account.id, link.link.id, probe);
  return renderRules(request, reply, ctx, 200, link, { text: storedText(link), visitor, explained });
}

/** What was posted: the builder's rows (as JSON for the core) or the JSON box's text. */
interface Draft {
  editor: 'rows' | 'json';
  rules: string;
  rows: RuleRow[];
}

/** The JSON box's text as rows when it reads as rules; else the stored rules' rows. */
function rowsOfText(rules: string, link: LinkView): RuleRow[] {
  try {
    const parsed: unknown = rules.trim() === '' ? [] : JSON.parse(rules);
    if (Array.isArray(parsed)) return rulesToRows(parsed);
  } catch {
    // Not rules the rows can show: the box keeps the text, the rows the stored rules.
  }
  return rulesToRows(link.link.rules);
}

function draftOf(body: unknown, link: LinkView): Draft {
  if (text(body, 'editor') !== 'rows') {
    const rules = text(body, 'rules');
    return { editor: 'json', rules, rows: rowsOfText(rules, link) };
  }
  const rows = rowsOfForm(body && typeof body === 'object' ? (body as Record<string, unknown>) : {}, RULE_LIMITS);
  return { editor: 'rows', rules: rows.length === 0 ? '' : JSON.stringify(rowsToRules(rows), null, 2), rows };
}

/** POST: saves rules whose replay was shown (or that did not change); else shows the replay first. */
async function saveRules(request: FastifyRequest, reply: FastifyReply, ctx: WebContext) {
  refuseBadParams(request);
  const { workspace: account } = viewerOf(request);
  const id = (request.params as IdParams).id;
  const link = await ctx.links.get(account.id, id);
  const draft = draftOf(request.body, link);
  const { rules, editor } = draft;
  const visitor = visitorFieldsOf({});
  const intent = text(request.body, 'intent');
  // A row button (Add rule, Move up …) changes the rows and saves nothing.
  const moved = editor === 'rows' ? applyRowAction(draft.rows, intent) : null;
  if (moved !== null) {
    const movedText = moved.length === 0 ? '' : JSON.stringify(rowsToRules(moved), null, 2);
    return renderRules(request, reply, ctx, 200, link, { text: movedText, visitor, rows: moved, editor });
  }
  const saving = intent !== 'preview';
  const unchanged = rules.trim() === storedText(link).trim();
  const page = { text: rules, visitor, rows: draft.rows, editor };
  try {
    if (saving && (unchanged || text(request.body, 'previewed') === fingerprint(rules))) {
      await ctx.links.update(
        account.id,
        account.timezone,
        id,
        { rules: rules.trim() === '' ? null : rules },
        webActor(request),
      );
      setFlash(reply, viewOf(request, reply, ctx.web.csrfSecret).t.rules.saved);
      return seeOther(reply, `/links/${id}/rules`);
    }
    // A change is saved only once its replay has been shown.
    const caller = `person:${viewerOf(request).account.id}`; // one preview at a time per person (docs/api.md §18)
    const preview = await ctx.rules.preview.preview(caller, account.id, id, {
      rules: rules.trim() === '' ? null : rules,
      days: PREVIEW_DAYS_DEFAULT,
    });
    return renderRules(request, reply, ctx, 200, link, {
      ...page,
      preview,
      previewed: fingerprint(rules),
      confirm: saving,
    });
  } catch (error) {
    // A refused turn keeps the draft on its page, told to try again, not lost to an error page.
    if (error instanceof TooManyAttemptsError) {
      reply.header('retry-after', String(error.retryAfterSeconds));
      return renderRules(request, reply, ctx, 429, link, { ...page, busy: true });
    }
    if (!(error instanceof ValidationError)) throw error;
    return renderRules(request, reply, ctx, 422, link, { ...page, errors: error.fields });
  }
}

/**
 * /links/{id}/rules: the link's rules as JSON with their faults beside the box, the replay of
 * the last 30 days before a change is saved, and Test a visitor (docs/web.md). The same core
 * services as the API: the link update, RulePreview and RuleExplainer.
 */
export const linkRulesPages: WebFeature = (web, ctx) => {
  web.get('/links/:id/rules', { schema: { params: IdParams } }, (request, reply) => showRules(request, reply, ctx));
  web.post('/links/:id/rules', { schema: { params: IdParams } }, (request, reply) => saveRules(request, reply, ctx));
};

function visitorFieldsOf(query: unknown): VisitorFields {
  return Object.fromEntries(
    VISITOR_FIELDS.map((name) => [name, text(query, name).slice(0, 2048)]),
  ) as unknown as VisitorFields;
}

function errorsOf(bag: FieldErrorBag): FieldErrors {
  try {
    bag.throwIfAny();
    return {};
  } catch (error) {
    return (error as ValidationError).fields;
  }
}

/** The visit the panel describes, or null with its faults in the bag. */
function probeOf(f: VisitorFields, timeZone: string, bag: FieldErrorBag) {
  const country = f.country.trim().toUpperCase();
  if (country !== '' && !/^[A-Z]{2}$/.test(country)) bag.add('country', messages.invalid('country'));
  const os = f.os === '' ? null : (PLATFORMS.find((p) => p === f.os) ?? null);
  if (f.os !== '' && os === null) bag.add('os', messages.selected('os'));
  const referrerHost = hostOf(f.referrer.trim());
  if (referrerHost === undefined) bag.add('referrer', messages.url('referrer'));
  let at: number | undefined;
  if (f.time !== '') {
    const [date = '', time = ''] = f.time.split('T');
    if (isValidDate(date) && isValidTime(time.slice(0, 5)))
      at = zonedDateTimeToEpochMs(date, time.slice(0, 5), timeZone);
    else bag.add('time', messages.invalid('time'));
  }
  if (bag.has('country') || bag.has('os') || bag.has('referrer') || bag.has('time')) return null;
  const visitor: Visitor = {
    country: country === '' ? null : country,
    platform: os,
    languages: parseAcceptLanguage(f.language || undefined),
    browser: f.browser === '' ? null : f.browser,
    device: f.device === '' ? null : f.device,
    isBot: false,
    refusesTracking: false,
    referrerHost: referrerHost ?? null,
  };
  return { visitor, query: '', address: '', at, cookie: undefined };
}

/** A referrer's host: null for none, undefined when it is neither a URL nor a host name. */
function hostOf(input: string): string | null | undefined {
  if (input === '') return null;
  for (const candidate of [input, `https://${input}`]) {
    if (!URL.canParse(candidate)) continue;
    const host = new URL(candidate).hostname.toLowerCase().replace(/\.$/, '');
    if (host !== '' && !host.includes(' ')) return host;
  }
  return undefined;
}
