import type { FieldErrorBag } from '../shared/errors.ts';

type Bag = Pick<FieldErrorBag, 'add'>;
type Obj = Record<string, unknown>;

/** Apple reads at most 128 KB of the file; both stay well inside a domain row. */
export const APP_SITE_FILE_MAX = 64 * 1024;

const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStringList = (v: unknown): v is string[] =>
  Array.isArray(v) && v.every((s) => typeof s === 'string' && s.length > 0);
// An Android signing certificate's SHA-256, as `keytool` prints it: 32 colon-separated hex pairs.
const FINGERPRINT = /^[0-9A-F]{2}(?::[0-9A-F]{2}){31}$/;
// Apple's app identifier: a team id, a dot, the bundle id.
const APP_ID = /^[A-Z0-9]{10}\.[A-Za-z0-9.-]+$/;

type Fail = (at: string, message: string) => void;

/** Apple's sections that list app ids alone (activitycontinuation: Handoff between app and site). */
const APP_LISTS = ['webcredentials', 'appclips', 'activitycontinuation'] as const;
const BOOLEAN_OPTIONS = ['caseSensitive', 'percentEncoded'] as const;

/**
 * A domain's apple-app-site-association (docs/design/domains.md), as JSON or JSON text: an object whose
 * `applinks`, `webcredentials`, `appclips` and `activitycontinuation` are shaped as Apple
 * documents them. Answers the JSON text to serve, normalised: what Apple does not read (a key
 * unknown at any level checked here) is dropped. undefined: not sent or refused (the bag names
 * the field); null: clear.
 */
export function checkAppleAppSiteAssociation(bag: Bag, field: string, input: unknown): string | null | undefined {
  const value = parsed(bag, field, input);
  if (value === undefined || value === null) return value;
  if (!isObject(value)) return refuse(bag, field, `The ${field} field must be a JSON object.`);
  let ok = true;
  const fail: Fail = (at, message) => {
    bag.add(at, message);
    ok = false;
  };
  if (value.applinks === undefined && APP_LISTS.every((key) => value[key] === undefined)) {
    fail(field, `The ${field} field must have applinks, webcredentials, appclips or activitycontinuation.`);
  }
  const out: Obj = {};
  if (value.applinks !== undefined) out.applinks = appLinksOf(value.applinks, `${field}.applinks`, fail);
  for (const key of APP_LISTS) {
    if (value[key] === undefined) continue;
    const section = value[key];
    const at = `${field}.${key}.apps`;
    if (!isObject(section) || !isStringList(section.apps) || !section.apps.every((id) => APP_ID.test(id)))
      fail(at, `The ${at} field must hold app ids such as ABCDE12345.com.example.app.`);
    else out[key] = { apps: section.apps };
  }
  return ok ? serialised(bag, field, out) : undefined;
}

/** `applinks`: its `details`, and Apple's `defaults`, `substitutionVariables` and (before iOS 13) `apps`. */
function appLinksOf(links: unknown, at: string, fail: Fail): Obj {
  const out: Obj = {};
  if (!isObject(links)) {
    fail(at, `The ${at} field must be an object.`);
    return out;
  }
  if (links.apps !== undefined) {
    if (Array.isArray(links.apps) && links.apps.every((s) => typeof s === 'string')) out.apps = links.apps;
    else fail(`${at}.apps`, `The ${at}.apps field must be a list of app ids (Apple reads an empty one).`);
  }
  if (!Array.isArray(links.details)) fail(`${at}.details`, `The ${at}.details field must be a list.`);
  else out.details = links.details.map((d: unknown, i: number) => detailOf(d, `${at}.details.${i}`, fail));
  if (links.defaults !== undefined) out.defaults = optionsOf(links.defaults, `${at}.defaults`, fail);
  if (links.substitutionVariables !== undefined) {
    const vars = links.substitutionVariables;
    const where = `${at}.substitutionVariables`;
    if (isObject(vars) && Object.values(vars).every(isStringList)) out.substitutionVariables = vars;
    else fail(where, `The ${where} field must map names to lists of text.`);
  }
  return out;
}

function detailOf(d: unknown, at: string, fail: Fail): Obj {
  const out: Obj = {};
  if (!isObject(d)) {
    fail(at, `The ${at} field must be an object.`);
    return out;
  }
  // A present appIDs is checked as the list it must be, null too (a 422 naming it, as for every
  // other field here): it never falls back to appID, which would serve a file naming neither.
  const listed = d.appIDs !== undefined;
  const ids = listed ? d.appIDs : d.appID === undefined ? undefined : [d.appID];
  const idsAt = `${at}.${listed ? 'appIDs' : 'appID'}`;
  if (!isStringList(ids) || ids.length === 0 || !ids.every((id) => APP_ID.test(id)))
    fail(idsAt, `The ${idsAt} field must hold app ids such as ABCDE12345.com.example.app.`);
  else if (listed) out.appIDs = d.appIDs;
  else out.appID = d.appID;
  if (d.paths !== undefined) {
    if (isStringList(d.paths)) out.paths = d.paths;
    else fail(`${at}.paths`, `The ${at}.paths field must be a list of paths.`);
  }
  if (d.components !== undefined) {
    if (Array.isArray(d.components))
      out.components = d.components.map((c: unknown, i: number) => componentOf(c, `${at}.components.${i}`, fail));
    else fail(`${at}.components`, `The ${at}.components field must be a list of objects.`);
  }
  if (d.defaults !== undefined) out.defaults = optionsOf(d.defaults, `${at}.defaults`, fail);
  if (d.paths === undefined && d.components === undefined) fail(at, `The ${at} field must have paths or components.`);
  return out;
}

/** A URL component pattern: `/`, `?` (text, or parameter → pattern), `#`, `exclude`, `comment` and the matching options. */
function componentOf(c: unknown, at: string, fail: Fail): Obj {
  const out: Obj = {};
  if (!isObject(c)) {
    fail(at, `The ${at} field must be an object.`);
    return out;
  }
  for (const key of ['/', '#', 'comment'] as const) {
    if (c[key] === undefined) continue;
    if (typeof c[key] === 'string') out[key] = c[key];
    else fail(`${at}.${key}`, `The ${at}.${key} field must be text.`);
  }
  const query = c['?'];
  if (query !== undefined) {
    if (typeof query === 'string' || (isObject(query) && Object.values(query).every((v) => typeof v === 'string')))
      out['?'] = query;
    else fail(`${at}.?`, `The ${at}.? field must be text, or map parameters to text.`);
  }
  if (c.exclude !== undefined) {
    if (typeof c.exclude === 'boolean') out.exclude = c.exclude;
    else fail(`${at}.exclude`, `The ${at}.exclude field must be true or false.`);
  }
  return { ...out, ...booleanOptions(c, at, fail) };
}

/** `defaults`: Apple's matching options. */
function optionsOf(value: unknown, at: string, fail: Fail): Obj {
  if (isObject(value)) return booleanOptions(value, at, fail);
  fail(at, `The ${at} field must be an object.`);
  return {};
}

function booleanOptions(value: Obj, at: string, fail: Fail): Obj {
  const out: Obj = {};
  for (const key of BOOLEAN_OPTIONS) {
    if (value[key] === undefined) continue;
    if (typeof value[key] === 'boolean') out[key] = value[key];
    else fail(`${at}.${key}`, `The ${at}.${key} field must be true or false.`);
  }
  return out;
}

/**
 * A domain's Digital Asset Links statement list (assetlinks.json), as JSON or JSON text: each
 * statement a `relation` list and a `target`, an Android app (package name and certificate
 * fingerprints) or a web site, and Google's `relation_extensions` (an object per relation).
 * Answered normalised: keys Google does not read are dropped.
 */
export function checkAssetLinks(bag: Bag, field: string, input: unknown): string | null | undefined {
  const value = parsed(bag, field, input);
  if (value === undefined || value === null) return value;
  if (!Array.isArray(value) || value.length === 0)
    return refuse(bag, field, `The ${field} field must be a non-empty JSON list of statements.`);
  let ok = true;
  const fail: Fail = (at, message) => {
    bag.add(at, message);
    ok = false;
  };
  const out = value.map((s: unknown, i: number) => statementOf(s, `${field}.${i}`, fail));
  return ok ? serialised(bag, field, out) : undefined;
}

function statementOf(s: unknown, at: string, fail: Fail): Obj {
  const out: Obj = {};
  if (!isObject(s)) {
    fail(at, `The ${at} field must be an object.`);
    return out;
  }
  if (!isStringList(s.relation) || s.relation.length === 0)
    fail(
      `${at}.relation`,
      `The ${at}.relation field must list relations such as delegate_permission/common.handle_all_urls.`,
    );
  else out.relation = s.relation;
  const t = s.target;
  if (!isObject(t)) fail(`${at}.target`, `The ${at}.target field must be an object.`);
  else out.target = targetOf(t, `${at}.target`, fail);
  if (s.relation_extensions !== undefined) {
    const ext = s.relation_extensions;
    if (isObject(ext) && Object.values(ext).every(isObject)) out.relation_extensions = ext;
    else fail(`${at}.relation_extensions`, `The ${at}.relation_extensions field must map relations to objects.`);
  }
  return out;
}

function targetOf(t: Obj, at: string, fail: Fail): Obj {
  if (t.namespace === 'android_app') {
    if (
      typeof t.package_name !== 'string' ||
      !/^[A-Za-z][A-Za-z0-9_]*(?:\.[A-Za-z][A-Za-z0-9_]*)+$/.test(t.package_name)
    )
      fail(
        `${at}.package_name`,
        `The ${at}.package_name field must be an Android package name such as com.example.app.`,
      );
    const prints = t.sha256_cert_fingerprints;
    if (!isStringList(prints) || prints.length === 0)
      fail(`${at}.sha256_cert_fingerprints`, `The ${at}.sha256_cert_fingerprints field must list fingerprints.`);
    else
      prints.forEach((p, j) => {
        if (!FINGERPRINT.test(p))
          fail(
            `${at}.sha256_cert_fingerprints.${j}`,
            `The ${at}.sha256_cert_fingerprints.${j} field must be 32 hex pairs separated by colons.`,
          );
      });
    return { namespace: t.namespace, package_name: t.package_name, sha256_cert_fingerprints: prints };
  }
  if (t.namespace === 'web') {
    if (typeof t.site !== 'string' || !/^https?:\/\/[^/\s]+$/.test(t.site))
      fail(`${at}.site`, `The ${at}.site field must be a site such as https://example.com.`);
    return { namespace: t.namespace, site: t.site };
  }
  fail(`${at}.namespace`, `The ${at}.namespace field must be android_app or web.`);
  return {};
}

/**
 * A stored file as served: checked and normalised again (one saved before the check dropped
 * unknown keys loses them); one the check refuses today is served as it was saved.
 */
export function servedAppSiteFile(
  text: string | null,
  check: (bag: Bag, field: string, input: unknown) => string | null | undefined,
): string | null {
  if (text === null) return null;
  const refused: string[] = [];
  const served = check({ add: (field) => void refused.push(field) }, 'file', text);
  return refused.length === 0 && typeof served === 'string' ? served : text;
}

/** The value a client sent: JSON, or JSON text (a form). */
function parsed(bag: Bag, field: string, input: unknown): unknown {
  if (input === undefined) return undefined;
  if (input === null || input === '') return null;
  if (typeof input !== 'string') return input;
  try {
    return JSON.parse(input) as unknown;
  } catch {
    return refuse(bag, field, `The ${field} field must be valid JSON.`);
  }
}

function serialised(bag: Bag, field: string, value: unknown): string | undefined {
  const text = JSON.stringify(value);
  if (new TextEncoder().encode(text).length <= APP_SITE_FILE_MAX) return text;
  return refuse(bag, field, `The ${field} field must not be larger than ${APP_SITE_FILE_MAX / 1024} KB.`);
}

function refuse(bag: Bag, field: string, message: string): undefined {
  bag.add(field, message);
  return undefined;
}
