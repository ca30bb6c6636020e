import type { Catalogue } from '../i18n/catalogue.ts';

/**
 * One numbering on every page (docs/design/rules.md): rules and variants count from 1, the API's
 * index + 1. The API, form field names, the winner route and error paths stay zero-based; a page
 * shows a path as "Rule 1 › country › value 1", the JSON view keeps it raw.
 */
export const pageNumber = (index: number): number => index + 1;

type Rules = Catalogue['rules'];

/** "Rule 2" or "Rule 2: Newsletter"; null: no rule decided (the link's URL). */
export function ruleLabel(t: Rules, index: number | null, name?: string | null): string {
  if (index === null) return t.noRule;
  const n = t.ruleNumber(pageNumber(index));
  return name ? `${n}: ${name}` : n;
}

export const variantLabel = (t: Rules, index: number): string => t.variantNumber(pageNumber(index));

/** `rules.0.when.country.0` -> "Rule 1 › country › value 1"; a path not under rules is returned as it is. */
export function pathLabel(t: Rules, path: string): string {
  const parts = path.split('.');
  if (parts[0] !== 'rules') return path;
  if (parts.length === 1) return t.editorLegend;
  const out: string[] = [];
  for (let i = 1; i < parts.length; i++) {
    const part = parts[i]!;
    const before = parts[i - 1];
    const index = /^\d+$/.test(part) ? Number(part) : null;
    if (index === null) out.push(part);
    else if (i === 1) out.push(t.ruleNumber(pageNumber(index)));
    else if (before === 'split') out.push(t.variantNumber(pageNumber(index)).toLowerCase());
    else out.push(t.valueNumber(pageNumber(index)));
  }
  // `when` is the JSON's wrapper, not something a person names.
  return out.filter((p) => p !== 'when').join(' › ');
}

/** A message with every rule path in it put the page's way ("The Rule 1 › country › value 1 format is invalid."). */
export function pageMessage(t: Rules, message: string): string {
  return message.replace(/\brules(?:\.[A-Za-z0-9_]+)+/g, (path) => pathLabel(t, path));
}
