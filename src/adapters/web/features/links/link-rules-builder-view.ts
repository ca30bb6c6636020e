import type { FieldErrors } from '../../../../core/shared/errors.ts';
import { RULE_LIMITS, WEEKDAYS, CONDITION_NAMES, type ConditionName } from '../../../../core/rules/rule.ts';
import { DEVICES } from '../../../../core/rules/visitor-names.ts';
import { PLATFORMS } from '../../../../core/targeting/target.ts';
import { html, type RawHtml } from '../../../shared/html/html.ts';
import { csrfField, fieldId, selectField, textField } from '../../ui/components.ts';
import { pageMessage, ruleLabel } from '../../ui/rule-numbering.ts';
import type { View } from '../../app/view.ts';
import {
  emptyCondition,
  emptyRule,
  emptyVariant,
  RULE_BROWSERS,
  type ConditionRow,
  type RuleRow,
  type VariantRow,
} from './link-rules-rows.ts';
import { targetOptions } from './target-options.ts';

export interface BuilderPage {
  id: number;
  rows: RuleRow[];
  /** The core's faults (`rules.0.when.country.0` …), shown beside the rule they concern. */
  errors?: FieldErrors | undefined;
  warnings: ReadonlyArray<{ field: string; message: string }>;
  previewed?: string | undefined;
}

type Messages = ReadonlyArray<{ field: string; message: string }>;

const ofRule = (list: Messages, i: number) =>
  list.filter((m) => m.field === `rules.${i}` || m.field.startsWith(`rules.${i}.`));

/** One button that changes the rows: a round trip without the script, in the page with it. */
function rowButton(label: string, intent: string, aria: { now: string; template: string }, disabled = false): RawHtml {
  return html`<button type="submit" class="secondary small" name="intent" value="${intent}" formaction="#rules-builder" aria-label="${aria.now}" data-aria-label="${aria.template}"${disabled ? html` disabled` : ''}>${label}</button>`;
}

function kindFields(view: View, base: string, c: ConditionRow): RawHtml {
  const b = view.t.rules.builder;
  const text = (label: string, list?: string) =>
    textField({ name: `${base}[text]`, label, value: c.text, autocomplete: 'off', ...(list ? { list } : {}) });
  const pick = (options: readonly string[]) =>
    selectField({
      name: `${base}[picked]`,
      label: b.picked,
      multiple: true,
      options: [...new Set([...options, ...c.picked])].map((o) => ({ value: o, label: o })),
      value: c.picked,
    });
  switch (c.kind) {
    case 'country':
      return text(b.countries, 'rules-countries');
    case 'language':
      return text(b.languages, 'rules-languages');
    case 'referrer':
      return text(b.referrers);
    case 'ip':
      return text(b.ips);
    case 'query':
      return text(b.query);
    case 'os':
      return pick(PLATFORMS);
    case 'browser':
      return pick(RULE_BROWSERS);
    case 'device':
      return pick(DEVICES);
    case 'time':
      return timeFields(view, base, c);
    case 'date':
      return html`<div class="field-pair">${textField({ name: `${base}[from]`, label: b.dateFrom, value: c.from, autocomplete: 'off' })}${textField({ name: `${base}[to]`, label: b.dateTo, value: c.to, autocomplete: 'off' })}</div>`;
    case 'visits':
      return html`<div class="field-pair">${textField({ name: `${base}[from]`, label: b.visitsFrom, value: c.from, inputmode: 'numeric' })}${textField({ name: `${base}[to]`, label: b.visitsBelow, value: c.to, inputmode: 'numeric' })}</div>`;
    case 'returning':
      return selectField({
        name: `${base}[text]`,
        label: b.returning,
        options: [
          { value: 'yes', label: b.returningYes },
          { value: 'no', label: b.returningNo },
        ],
        value: c.text,
      });
  }
}

function timeFields(view: View, base: string, c: ConditionRow): RawHtml {
  const b = view.t.rules.builder;
  const zone = c.tz === '' ? view.fmt.timeZone : c.tz;
  const zones = [...new Set(['UTC', ...Intl.supportedValuesOf('timeZone'), zone])];
  return html`<fieldset class="rule-days"><legend>${b.days}</legend>${WEEKDAYS.map((d) => html`<label class="check"><input type="checkbox" name="${base}[picked]" value="${d}"${c.picked.includes(d) ? html` checked` : ''}> ${b.weekdays[d] ?? d}</label>`)}</fieldset>
<div class="field-pair">${textField({ name: `${base}[from]`, label: b.timeFrom, type: 'time', value: c.from })}${textField({ name: `${base}[to]`, label: b.timeTo, type: 'time', value: c.to })}</div>
${selectField({ name: `${base}[tz]`, label: b.tz, options: zones.map((z) => ({ value: z, label: z })), value: zone })}`;
}

function conditionRow(view: View, i: number, j: number, c: ConditionRow): RawHtml {
  const b = view.t.rules.builder;
  const base = `rule[${i}][c][${j}]`;
  const kinds = CONDITION_NAMES.map((k) => ({ value: k, label: b.kinds[k] ?? k }));
  const notId = fieldId(`${base}[not]`);
  return html`<li class="rule-condition" data-rb-condition>
<div class="rule-condition-head">
${selectField({ name: `${base}[kind]`, label: b.kind, options: kinds, value: c.kind })}
<label class="check" for="${notId}"><input type="checkbox" id="${notId}" name="${base}[not]" value="1"${c.not ? html` checked` : ''}> ${b.not}</label>
<button type="submit" class="secondary small" name="intent" value="refresh" formaction="#${fieldId(`${base}[kind]`)}" data-rb-noscript>${b.showFields}</button>
${rowButton(b.removeCondition, `remove-condition:${i}:${j}`, { now: b.rowLabel(b.removeCondition, i + 1), template: b.rowLabel(b.removeCondition, '{n}') })}
</div>
<div class="rule-condition-fields">${kindFields(view, base, c)}</div>
</li>`;
}

function variantRow(view: View, i: number, k: number, v: VariantRow): RawHtml {
  const b = view.t.rules.builder;
  const base = `rule[${i}][split][${k}]`;
  return html`<li class="rule-variant" data-rb-variant>
<p class="rule-variant-name" data-variant-label="${view.t.rules.variantNumber('{k}' as unknown as number)}">${view.t.rules.variantNumber(k + 1)}</p>
${textField({ name: `${base}[url]`, label: b.variantUrl, type: 'url', value: v.url, inputmode: 'url' })}
${textField({ name: `${base}[weight]`, label: b.weight, value: v.weight, inputmode: 'numeric' })}
${rowButton(b.removeVariant, `remove-variant:${i}:${k}`, { now: b.rowLabel(b.removeVariant, i + 1), template: b.rowLabel(b.removeVariant, '{n}') })}
</li>`;
}

function splitSection(view: View, i: number, r: RuleRow, warned: boolean): RawHtml {
  const b = view.t.rules.builder;
  const sum = r.split.reduce((s, v) => s + (Number(v.weight) || 0), 0);
  return html`<div class="rule-split" data-rb-mode="split">
<ol class="rule-variants">${r.split.map((v, k) => variantRow(view, i, k, v))}</ol>
<p class="hint" data-rb-sum aria-live="polite"><span data-rb-sum-text data-label="${b.weightSum('{sum}')}">${b.weightSum(view.fmt.number(sum))}</span> <span class="rule-warn" data-rb-sum-warn${sum === 100 || warned ? html` hidden` : ''}>${b.weightWarning}</span></p>
${rowButton(b.addVariant, `add-variant:${i}`, { now: b.rowLabel(b.addVariant, i + 1), template: b.rowLabel(b.addVariant, '{n}') }, r.split.length >= RULE_LIMITS.values)}
</div>`;
}

/** One rule: its name, conditions, destination or split, app links, and its faults and warnings beside it. */
function ruleRow(view: View, p: BuilderPage, i: number, r: RuleRow): RawHtml {
  const b = view.t.rules.builder;
  const base = `rule[${i}]`;
  const label = ruleLabel(view.t.rules, i);
  const errors = Object.entries(p.errors ?? {}).flatMap(([field, list]) => list.map((message) => ({ field, message })));
  const faults = ofRule(errors, i);
  const warnings = ofRule(p.warnings, i);
  const aria = (what: string) => ({ now: b.rowLabel(what, i + 1), template: b.rowLabel(what, '{n}') });
  const mode = (value: 'url' | 'split', text: string) =>
    html`<label class="check"><input type="radio" name="${base}[mode]" value="${value}"${r.mode === value ? html` checked` : ''}> ${text}</label>`;
  return html`<li class="rule-row" data-rb-rule>
<fieldset${faults.length > 0 ? html` aria-describedby="${fieldId(base)}-faults"` : ''}>
<legend data-label="${view.t.rules.ruleNumber('{n}' as unknown as number)}">${label}</legend>
${faults.length > 0 ? html`<div class="field-error rule-faults" id="${fieldId(base)}-faults"><p>${b.faults}</p><ul>${faults.map((f) => html`<li>${pageMessage(view.t.rules, f.message.includes(f.field.replace(/_/g, ' ')) || f.message.includes(f.field) ? f.message : `${f.field}: ${f.message}`)}</li>`)}</ul></div>` : ''}
${warnings.length > 0 ? html`<ul class="rules-warnings rule-row-warnings" role="note">${warnings.map((w) => html`<li>${pageMessage(view.t.rules, w.message)}</li>`)}</ul>` : ''}
${textField({ name: `${base}[name]`, label: b.name, value: r.name, maxlength: RULE_LIMITS.nameMax, autocomplete: 'off' })}
<fieldset class="rule-conditions"><legend>${b.conditions}</legend>
<p class="hint">${b.notHint}</p>
<ol class="rule-condition-list">${r.conditions.map((c, j) => conditionRow(view, i, j, c))}</ol>
${rowButton(b.addCondition, `add-condition:${i}`, aria(b.addCondition), r.conditions.length >= CONDITION_NAMES.length * 2)}
</fieldset>
<fieldset class="rule-sends"><legend>${b.sends}</legend>
<div class="rule-modes">${mode('url', b.modeUrl)}${mode('split', b.modeSplit)}</div>
<div data-rb-mode="url">${textField({ name: `${base}[url]`, label: b.url, type: 'url', value: r.url, inputmode: 'url' })}</div>
${splitSection(
  view,
  i,
  r,
  warnings.some((w) => w.field === `rules.${i}.split`),
)}
</fieldset>
<details class="rule-app-links"${r.ios_url !== '' || r.android_url !== '' ? html` open` : ''}><summary>${b.appLinks}</summary>
${textField({ name: `${base}[ios_url]`, label: b.iosUrl, value: r.ios_url, inputmode: 'url' })}
${textField({ name: `${base}[android_url]`, label: b.androidUrl, value: r.android_url, inputmode: 'url' })}
</details>
<div class="actions rule-row-actions">
${rowButton(b.moveUp, `up:${i}`, aria(b.moveUp), i === 0)}
${rowButton(b.moveDown, `down:${i}`, aria(b.moveDown), i === p.rows.length - 1)}
${rowButton(b.removeRule, `remove-rule:${i}`, aria(b.removeRule))}
</div>
</fieldset>
</li>`;
}

/** The page's shared pickers (one list each, however many rows name them) and the script's templates. */
function builderExtras(view: View, p: BuilderPage): RawHtml {
  const options = targetOptions(view.fmt.locale);
  const kinds = CONDITION_NAMES.map(
    (k: ConditionName) =>
      html`<template data-rb-kind="${k}">${kindFields(view, 'rule[0][c][0]', emptyCondition(k))}</template>`,
  );
  return html`<datalist id="rules-countries">${options.country.map((o) => html`<option value="${o.value}">${o.label}</option>`)}</datalist>
<datalist id="rules-languages">${options.language.map((o) => html`<option value="${o.value}">${o.label}</option>`)}</datalist>
<template data-rb-template="rule">${ruleRow(view, { ...p, rows: [emptyRule(), emptyRule()], errors: {}, warnings: [] }, 1, emptyRule())}</template>
<template data-rb-template="condition">${conditionRow(view, 0, 0, emptyCondition())}</template>
<template data-rb-template="variant">${variantRow(view, 0, 0, emptyVariant())}</template>
${kinds}`;
}

/** The rules builder (docs/design/rules.md, The builder): rules as rows, posting to the same save as the JSON. */
export function rulesBuilder(view: View, p: BuilderPage): RawHtml {
  const b = view.t.rules.builder;
  const t = view.t.rules;
  return html`<form method="post" action="/links/${p.id}/rules" class="stack rules-builder" id="rules-builder" novalidate data-rules-builder data-rules-max="${RULE_LIMITS.rules}">
${csrfField(view)}
<input type="hidden" name="editor" value="rows">
${p.previewed ? html`<input type="hidden" name="previewed" value="${p.previewed}">` : ''}
<button type="submit" name="intent" value="save" class="visually-hidden" tabindex="-1" aria-hidden="true">${t.save}</button>
<fieldset>
<legend>${b.legend}</legend>
<p class="hint">${b.hint}</p>
<p class="hint" data-rb-empty${p.rows.length > 0 ? html` hidden` : ''}>${b.empty}</p>
<ol class="rule-rows">${p.rows.map((r, i) => ruleRow(view, p, i, r))}</ol>
<div class="actions">${rowButton(b.addRule, 'add-rule', { now: b.addRule, template: b.addRule }, p.rows.length >= RULE_LIMITS.rules)}</div>
</fieldset>
<div class="actions"><button type="submit" name="intent" value="save">${t.save}</button> <button type="submit" class="secondary" name="intent" value="preview">${t.preview}</button></div>
${builderExtras(view, p)}
</form>`;
}
