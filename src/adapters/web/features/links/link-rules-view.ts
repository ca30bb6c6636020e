import type { FieldErrors } from '../../../../core/shared/errors.ts';
import type { ExplainAnswer } from '../../../../core/rules/explain-service.ts';
import type { PreviewAnswer, PreviewRow } from '../../../../core/rules/rule-preview.ts';
import { DEVICES } from '../../../../core/rules/visitor-names.ts';
import { PLATFORMS } from '../../../../core/targeting/target.ts';
import { html, type RawHtml } from '../../../shared/html/html.ts';
import { csrfField, errorSummary, selectField, textArea, textField } from '../../ui/components.ts';
import type { View } from '../../app/view.ts';
import { pageMessage, ruleLabel, variantLabel } from '../../ui/rule-numbering.ts';
import { RULE_BROWSERS, type RuleRow } from './link-rules-rows.ts';
import { rulesBuilder } from './link-rules-builder-view.ts';

/** The Test a visitor fields as typed (each kept on the round trip). */
export interface VisitorFields {
  country: string;
  os: string;
  device: string;
  browser: string;
  language: string;
  referrer: string;
  time: string;
}

export const VISITOR_FIELDS = ['country', 'os', 'device', 'browser', 'language', 'referrer', 'time'] as const;

export interface RulesPage {
  id: number;
  shortUrl: string;
  /** The rules text in the box: the stored rules, or what was posted. */
  text: string;
  /** The link acts by its phpShort targeting lists (no rules of its own). */
  targeting: boolean;
  /** Faults of the rules box (rules, rules.0.url …) or of the visitor fields. */
  errors?: FieldErrors | undefined;
  warnings: ReadonlyArray<{ field: string; message: string }>;
  preview?: PreviewAnswer | undefined;
  /** The fingerprint of the text the preview above is of: "Save" then saves without asking again. */
  previewed?: string | undefined;
  /** The preview came from pressing Save: ask to press it again. */
  confirm?: boolean;
  /** The preview was refused: one of the person's previews was already running (docs/api.md §18). */
  busy?: boolean;
  visitor: VisitorFields;
  explained?: ExplainAnswer | undefined;
  /** The same rules as the builder's rows. */
  rows: RuleRow[];
  /** Which of the two posted (its faults go beside it; the other shows the same rules). */
  editor: 'rows' | 'json';
}

export function rulesPage(view: View, p: RulesPage): RawHtml {
  const t = view.t.rules;
  return html`<h1>${t.pageTitle(p.shortUrl)}</h1>
<p>${view.can('links.write') ? html`<a href="/links/${p.id}/edit">${t.backToLink}</a>` : html`<a href="/stats/${p.id}">${t.backToStats}</a>`}</p>
${summary(view, p)}
${p.busy === true ? html`<p class="flash" role="alert">${t.previewBusy}</p>` : ''}
<div class="rules-layout">
${editors(view, p)}
${p.preview ? previewSection(view, p.preview, p.confirm === true) : ''}
${testPanel(view, p)}
</div>`;
}

/**
 * The faults at the top, each linking to where it is shown: a rule's row in the builder, or the
 * JSON box, which holds every rule. Paths read the page's way there ("Rule 1 › country").
 */
function summary(view: View, p: RulesPage): RawHtml {
  const fields = Object.keys(p.errors ?? {});
  const targets = Object.fromEntries(
    fields.map((f) => {
      const rule = /^rules\.(\d+)/.exec(f)?.[1];
      if (!f.startsWith('rules')) return [f, f];
      return [f, p.editor === 'rows' && rule !== undefined ? `rule[${rule}][name]` : 'rules'];
    }),
  );
  const shown = Object.fromEntries(
    Object.entries(p.errors ?? {}).map(([f, list]) => [f, list.map((m) => pageMessage(view.t.rules, m))]),
  );
  return errorSummary(view, p.errors ? shown : undefined, targets);
}

/** The builder, and the JSON box as its Advanced view: open when it was the one posted. */
function editors(view: View, p: RulesPage): RawHtml {
  if (!view.can('links.write')) return readOnlyRules(view, p);
  const rowsPage = {
    id: p.id,
    rows: p.rows,
    errors: p.editor === 'rows' ? p.errors : undefined,
    warnings: p.warnings,
    previewed: p.previewed,
  };
  return html`<div class="stack">
${rulesBuilder(view, rowsPage)}
<details class="rules-advanced"${p.editor === 'json' ? html` open` : ''}><summary>${view.t.rules.builder.advanced}</summary>
${editor(view, { ...p, errors: p.editor === 'json' ? p.errors : undefined })}
</details>
</div>`;
}

/** A reader's view of the rules: the text, no form that would refuse them. */
function readOnlyRules(view: View, p: RulesPage): RawHtml {
  const t = view.t.rules;
  return html`<section class="stack rules-form" aria-labelledby="rules-read-title">
<h2 id="rules-read-title">${t.editorLegend}</h2>
<p class="hint">${t.readOnly}</p>
${p.text.trim() === '' ? html`<p>${t.noRules}</p>` : html`<pre class="rules-text" tabindex="0" aria-labelledby="rules-read-title">${p.text}</pre>`}
</section>`;
}

function editor(view: View, p: RulesPage): RawHtml {
  const t = view.t.rules;
  const ruleErrors = Object.entries(p.errors ?? {}).filter(([f]) => f.startsWith('rules'));
  // The box shows its faults by path, since one box holds every rule.
  const boxErrors: FieldErrors =
    ruleErrors.length === 0
      ? {}
      : { rules: ruleErrors.flatMap(([f, list]) => list.map((m) => (f === 'rules' ? m : `${f}: ${m}`))) };
  return html`<form method="post" action="/links/${p.id}/rules" class="stack rules-form" novalidate>
${csrfField(view)}
<input type="hidden" name="editor" value="json">
<fieldset>
<legend>${t.editorLegend}</legend>
<p class="hint">${t.intro}</p>
${p.targeting ? html`<p class="hint">${t.targetingHint}</p>` : ''}
${textArea({ name: 'rules', label: t.field, hint: t.docsHint, value: p.text, errors: boxErrors, rows: 14 })}
${p.previewed ? html`<input type="hidden" name="previewed" value="${p.previewed}">` : ''}
${p.warnings.length > 0 ? html`<div class="rules-warnings" role="note"><h2>${t.warningsTitle}</h2><ul>${p.warnings.map((w) => html`<li><code>${w.field}</code>: ${w.message}</li>`)}</ul></div>` : ''}
</fieldset>
<div class="actions"><button type="submit" name="intent" value="save">${t.save}</button> <button type="submit" class="secondary" name="intent" value="preview">${t.preview}</button></div>
</form>`;
}

function previewSection(view: View, pv: PreviewAnswer, confirm: boolean): RawHtml {
  const t = view.t.rules;
  const fmt = view.fmt;
  return html`<section class="rules-preview" aria-labelledby="rules-preview-title">
<h2 id="rules-preview-title" tabindex="-1">${t.previewTitle}</h2>
${confirm ? html`<p class="flash" role="status">${t.confirmNotice}</p>` : ''}
${pv.clicks === 0 ? html`<p>${t.noClicks}</p>` : html`<p>${t.previewSummary(fmt.number(pv.clicks), fmt.number(pv.changed))}</p>`}
${pv.since !== null ? html`<p class="hint">${t.previewSince(fmt.dateTime(pv.since))}</p>` : ''}
${pv.unknown.length > 0 ? html`<p class="hint">${t.previewUnknown(pv.unknown.join(', '))}</p>` : ''}
${pv.clicks > 0 ? html`${rowsTable(view, t.currentCaption, pv.current)}${rowsTable(view, t.draftCaption, pv.draft)}` : ''}
</section>`;
}

function rowsTable(view: View, caption: string, rows: readonly PreviewRow[]): RawHtml {
  const t = view.t.rules;
  return html`<div class="table-wrap" tabindex="0" role="region" aria-label="${caption}"><table>
<caption>${caption}</caption>
<thead><tr><th scope="col">${t.destination}</th><th scope="col">${t.rule}</th><th scope="col" class="num">${t.clicks}</th></tr></thead>
<tbody>${rows.map((r) => html`<tr><td class="url">${r.url}</td><td>${ruleLabel(t, r.rule)}</td><td class="num">${view.fmt.number(r.clicks)}</td></tr>`)}</tbody>
</table></div>`;
}

function testPanel(view: View, p: RulesPage): RawHtml {
  const t = view.t.rules.test;
  const v = p.visitor;
  const errors = p.errors;
  const choose = (values: readonly string[]) => [
    { value: '', label: t.unknown },
    ...values.map((x) => ({ value: x, label: x })),
  ];
  // A GET form: testing changes nothing, so the fields ride in the URL and the answer is a page to keep.
  return html`<form method="get" action="/links/${p.id}/rules#test-result" class="stack rules-test" novalidate>
<fieldset>
<legend>${t.legend}</legend>
<p class="hint">${t.hint}</p>
<input type="hidden" name="test" value="1">
${textField({ name: 'country', label: t.country, value: v.country, errors, maxlength: 2, autocomplete: 'off' })}
${selectField({ name: 'os', label: t.os, options: choose(PLATFORMS), value: v.os, errors })}
${selectField({ name: 'device', label: t.device, options: choose(DEVICES), value: v.device, errors })}
${selectField({ name: 'browser', label: t.browser, options: choose(RULE_BROWSERS), value: v.browser, errors })}
${textField({ name: 'language', label: t.language, value: v.language, errors, maxlength: 256, autocomplete: 'off' })}
${textField({ name: 'referrer', label: t.referrer, value: v.referrer, errors, maxlength: 2048, inputmode: 'url', autocomplete: 'off' })}
${textField({ name: 'time', label: t.time, hint: t.timeHint(view.fmt.timeZone), type: 'datetime-local', value: v.time, errors })}
</fieldset>
<div class="actions"><button type="submit" class="secondary">${t.submit}</button></div>
</form>
${p.explained ? explained(view, p.explained) : ''}`;
}

function explained(view: View, e: ExplainAnswer): RawHtml {
  const t = view.t.rules.test;
  const decided = ruleLabel(view.t.rules, e.rule, e.trace.find((s) => s.rule === e.rule)?.name);
  return html`<section class="rules-result" id="test-result" aria-labelledby="test-result-title">
<h2 id="test-result-title" tabindex="-1">${t.resultTitle}</h2>
<dl class="rules-outcome">
<dt>${t.outcomes[e.outcome] ?? e.outcome}</dt>
${e.url !== null ? html`<dd><span>${t.to}:</span> <span class="url">${e.url}</span></dd>` : ''}
<dd><span>${t.decidedBy}:</span> ${decided}${e.variant !== null ? ` › ${variantLabel(view.t.rules, e.variant)}` : ''}</dd>
<dd><span>${t.countsClick}:</span> ${e.countsClick ? t.yes : t.no}</dd>
</dl>
${e.trace.length === 0 ? html`<p class="hint">${t.noRules}</p>` : html`<ol class="rules-trace" aria-label="${t.traceCaption}">${e.trace.map((r) => traceRule(view, r))}</ol>`}
</section>`;
}

function traceRule(view: View, r: ExplainAnswer['trace'][number]): RawHtml {
  const t = view.t.rules.test;
  const title = ruleLabel(view.t.rules, r.rule, r.name);
  return html`<li class="${r.matched ? 'rule-matched' : 'rule-missed'}"><p><strong>${title}</strong>: ${r.matched ? t.matched : t.notMatched}</p>
${
  r.conditions.length === 0
    ? ''
    : html`<div class="table-wrap" tabindex="0" role="region" aria-label="${title}"><table>
<thead><tr><th scope="col">${t.condition}</th><th scope="col">${t.value}</th><th scope="col">${t.answer}</th></tr></thead>
<tbody>${r.conditions.map((c) => html`<tr><td>${c.condition}</td><td>${valueText(c.value, t.empty)}</td><td>${c.matched ? t.holds : t.doesNotHold}</td></tr>`)}</tbody>
</table></div>`
}</li>`;
}

function valueText(value: unknown, empty: string): string {
  if (value === null || value === undefined) return empty;
  if (Array.isArray(value)) return value.length === 0 ? empty : value.map((v) => valueText(v, empty)).join(', ');
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}
