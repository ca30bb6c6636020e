import type { StaticEntry } from '../../core/links/static-links.ts';

export const STATIC_FORMATS = ['nginx', 'caddy', 'json'] as const;
export type StaticFormat = (typeof STATIC_FORMATS)[number];

export interface StaticTarget {
  /** APP_URL's host name and path (no trailing slash): where the app's own links are keyed. */
  appBase: string;
  /** The redirect's status (REDIRECT_STATUS). */
  status: number;
}

/** One format's text: its head, one line (or nothing, with the reason) per link, its tail. */
export interface StaticWriter {
  head(): string;
  /** The text of the link's keys, or why this format cannot hold its URL. */
  link(keys: readonly string[], url: string): { text: string } | { refused: string };
  tail(): string;
}

/**
 * The map's keys of a link: its host and path lower-cased (aliases are case-insensitive), and as
 * it was written when that differs, since printed short URLs keep their case: Caddy's map
 * matches exactly, so a visit there in any other case misses the static copy. nginx's ignores case.
 */
export function keysOf(entry: Pick<StaticEntry, 'domain' | 'alias'>, appBase: string): string[] {
  const key = `${entry.domain ?? appBase}/${entry.alias}`;
  const lower = key.toLowerCase();
  return lower === key ? [lower] : [lower, key];
}

/** A double-quoted string of nginx's and Caddy's configuration languages. */
const quoted = (text: string) => `"${text.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
/** Characters a URL may hold that are not in a URL's strict syntax: never written into a server's configuration. */
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\s\x00-\x1f\x7f"\\]/;

const nginx = (t: StaticTarget): StaticWriter => ({
  head: () =>
    `# linkpix export-static: the plain links (docs/operations.md, "A static copy"); redirect with: return ${t.status} $linkpix_target;\n` +
    'map $host$uri $linkpix_target {\n    default "";\n',
  link(keys, url) {
    // nginx reads $name in a map's value as a variable.
    if (url.includes('$') || UNSAFE.test(url)) return { refused: 'a character nginx would read in the URL' };
    // nginx's map compares its keys ignoring case: the lower-case one is all it needs (and a second would conflict).
    return { text: `    ${quoted(keys[0]!)} ${quoted(url)};\n` };
  },
  tail: () => '}\n',
});

const caddy = (t: StaticTarget): StaticWriter => ({
  head: () =>
    `# linkpix export-static: the plain links (docs/operations.md, "A static copy"); use with: import linkpix_static\n` +
    '(linkpix_static) {\n\tmap {host}{path} {linkpix_target} {\n\t\tdefault ""\n',
  link(keys, url) {
    // Caddy reads {name} in a map's value as a placeholder.
    if (/[{}]/.test(url) || UNSAFE.test(url)) return { refused: 'a character Caddy would read in the URL' };
    return { text: keys.map((k) => `\t\t${quoted(k)} ${quoted(url)}\n`).join('') };
  },
  tail: () =>
    `\t}\n\t@linkpix_static not vars {linkpix_target} ""\n\tredir @linkpix_static {linkpix_target} ${t.status}\n}\n`,
});

function json(t: StaticTarget): StaticWriter {
  let first = true;
  return {
    head: () =>
      `{"format":"linkpix.static","version":1,"app":${JSON.stringify(t.appBase)},"status":${t.status},"links":[`,
    link(keys, url) {
      let text = '';
      for (const key of keys) {
        text += `${first ? '' : ','}\n${JSON.stringify({ key, url })}`;
        first = false;
      }
      return { text };
    },
    tail: () => '\n]}\n',
  };
}

export function staticWriter(format: StaticFormat, target: StaticTarget): StaticWriter {
  return { nginx, caddy, json }[format](target);
}
