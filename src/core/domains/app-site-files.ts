import type { FieldErrorBag } from '../shared/errors.ts';

type Bag = Pick<FieldErrorBag, 'add'>;
type Obj = Record<string, unknown>;

/** Apple reads at most 128 KB of the file; both stay well inside a domain row. */
export const APP_SITE_FILE_MAX = 64 * 1024;

const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStringList = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string' && s.length > 0);
// An Android signing certificate's SHA-256, as `keytool` prints it: 32 colon-separated hex pairs.
const FINGERPRINT = /^[0-9A-F]{2}(?::[0-9A-F]{2}){31}$/;
// Apple's app identifier: a team id, a dot, the bundle id.
const APP_ID = /^[A-Z0-9]{10}\.[A-Za-z0-9.-]+$/;

/**
 * A domain's apple-app-site-association (docs/adr/0067), as JSON or JSON text: an object whose
 * `applinks`, `webcredentials` and `appclips` are shaped as Apple documents them. Answers the
 * JSON text to serve; undefined: not sent or refused (the bag names the field); null: clear.
 */
export function checkAppleAppSiteAssociation(bag: Bag, field: string, input: unknown): string | null | undefined {
  const value = parsed(bag, field, input);
  if (value === undefined || value === null) return value;
  if (!isObject(value)) return refuse(bag, field, `The ${field} field must be a JSON object.`);
  let ok = true;
  const fail = (at: string, message: string) => {
    bag.add(at, message);
    ok = false;
  };
  if (value.applinks === undefined && value.webcredentials === undefined && value.appclips === undefined) {
    fail(field, `The ${field} field must have applinks, webcredentials or appclips.`);
  }
  if (value.applinks !== undefined) {
    const links = value.applinks;
    if (!isObject(links)) fail(`${field}.applinks`, `The ${field}.applinks field must be an object.`);
    else if (!Array.isArray(links.details)) fail(`${field}.applinks.details`, `The ${field}.applinks.details field must be a list.`);
    else
      links.details.forEach((d: unknown, i: number) => {
        const at = `${field}.applinks.details.${i}`;
        if (!isObject(d)) return fail(at, `The ${at} field must be an object.`);
        const ids = d.appIDs ?? (d.appID === undefined ? undefined : [d.appID]);
        const idsAt = `${at}.${d.appIDs !== undefined ? 'appIDs' : 'appID'}`;
        if (!isStringList(ids) || ids.length === 0 || !ids.every((id) => APP_ID.test(id)))
          fail(idsAt, `The ${idsAt} field must hold app ids such as ABCDE12345.com.example.app.`);
        if (d.paths !== undefined && !isStringList(d.paths)) fail(`${at}.paths`, `The ${at}.paths field must be a list of paths.`);
        if (d.components !== undefined && (!Array.isArray(d.components) || !d.components.every(isObject)))
          fail(`${at}.components`, `The ${at}.components field must be a list of objects.`);
        if (d.paths === undefined && d.components === undefined) fail(at, `The ${at} field must have paths or components.`);
      });
  }
  for (const key of ['webcredentials', 'appclips'] as const) {
    if (value[key] === undefined) continue;
    const section = value[key];
    const at = `${field}.${key}.apps`;
    if (!isObject(section) || !isStringList(section.apps) || !section.apps.every((id) => APP_ID.test(id)))
      fail(at, `The ${at} field must hold app ids such as ABCDE12345.com.example.app.`);
  }
  return ok ? serialised(bag, field, value) : undefined;
}

/**
 * A domain's Digital Asset Links statement list (assetlinks.json), as JSON or JSON text: each
 * statement a `relation` list and a `target`, an Android app (package name and certificate
 * fingerprints) or a web site.
 */
export function checkAssetLinks(bag: Bag, field: string, input: unknown): string | null | undefined {
  const value = parsed(bag, field, input);
  if (value === undefined || value === null) return value;
  if (!Array.isArray(value) || value.length === 0) return refuse(bag, field, `The ${field} field must be a non-empty JSON list of statements.`);
  let ok = true;
  const fail = (at: string, message: string) => {
    bag.add(at, message);
    ok = false;
  };
  value.forEach((s: unknown, i: number) => {
    const at = `${field}.${i}`;
    if (!isObject(s)) return fail(at, `The ${at} field must be an object.`);
    if (!isStringList(s.relation) || s.relation.length === 0)
      fail(`${at}.relation`, `The ${at}.relation field must list relations such as delegate_permission/common.handle_all_urls.`);
    const t = s.target;
    if (!isObject(t)) return fail(`${at}.target`, `The ${at}.target field must be an object.`);
    if (t.namespace === 'android_app') {
      if (typeof t.package_name !== 'string' || !/^[A-Za-z][A-Za-z0-9_]*(?:\.[A-Za-z][A-Za-z0-9_]*)+$/.test(t.package_name))
        fail(`${at}.target.package_name`, `The ${at}.target.package_name field must be an Android package name such as com.example.app.`);
      const prints = t.sha256_cert_fingerprints;
      if (!isStringList(prints) || prints.length === 0)
        fail(`${at}.target.sha256_cert_fingerprints`, `The ${at}.target.sha256_cert_fingerprints field must list fingerprints.`);
      else
        prints.forEach((p, j) => {
          if (!FINGERPRINT.test(p))
            fail(`${at}.target.sha256_cert_fingerprints.${j}`, `The ${at}.target.sha256_cert_fingerprints.${j} field must be 32 hex pairs separated by colons.`);
        });
    } else if (t.namespace === 'web') {
      if (typeof t.site !== 'string' || !/^https?:\/\/[^/\s]+$/.test(t.site))
        fail(`${at}.target.site`, `The ${at}.target.site field must be a site such as https://example.com.`);
    } else fail(`${at}.target.namespace`, `The ${at}.target.namespace field must be android_app or web.`);
  });
  return ok ? serialised(bag, field, value) : undefined;
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
