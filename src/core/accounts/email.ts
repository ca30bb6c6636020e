/**
 * Emails as accounts hold them, and what makes one look like another's. Every way in (sign-up,
 * the profile, the API, the CLI) and every lookup by email goes through normaliseEmail, so two
 * spellings of one address (composed or decomposed accents, case, surrounding spaces) name one
 * account.
 */

/** NFC, trimmed, lower case: the form stored and looked up. */
export function normaliseEmail(raw: string): string {
  // Lower-casing can decompose (İ → i + U+0307): NFC comes last.
  return raw.trim().toLowerCase().normalize('NFC');
}

/**
 * Characters that show nothing, or reorder what is shown, so that two addresses print alike:
 * controls (NUL…), format characters (zero-width spaces and joiners, bidi embeddings, overrides
 * and isolates, the BOM, soft hyphens), line and paragraph separators, private-use and
 * unassigned code points, variation selectors, the combining grapheme joiner and the Hangul
 * fillers (letters that render blank).
 */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Zl}\p{Zp}\u115F\u1160\u3164\uFFA0]|\u034F|\p{Variation_Selector}/u;

export function hasHiddenCharacters(email: string): boolean {
  return HIDDEN.test(email);
}

/** The text with each hidden character spelled out (`⟨U+200B⟩`), for an operator to see it. */
export function revealHidden(text: string): string {
  return text.replace(
    new RegExp(HIDDEN.source, 'gu'),
    (c) => `⟨U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}⟩`,
  );
}

/**
 * The scripts an address is told apart by, named. Letters of a script not listed count as one
 * more script of their own, so mixing one with a listed script is still seen. Common characters
 * (digits, `.`, `-`, `+`) and inherited ones (combining accents) belong to every script.
 */
const SCRIPTS: ReadonlyArray<readonly [string, RegExp]> = [
  ['Latin', /\p{Script=Latin}/u],
  ['Cyrillic', /\p{Script=Cyrillic}/u],
  ['Greek', /\p{Script=Greek}/u],
  ['Armenian', /\p{Script=Armenian}/u],
  ['Georgian', /\p{Script=Georgian}/u],
  ['Cherokee', /\p{Script=Cherokee}/u],
  ['Hebrew', /\p{Script=Hebrew}/u],
  ['Arabic', /\p{Script=Arabic}/u],
  ['Devanagari', /\p{Script=Devanagari}/u],
  ['Bengali', /\p{Script=Bengali}/u],
  ['Tamil', /\p{Script=Tamil}/u],
  ['Thai', /\p{Script=Thai}/u],
  ['Han', /\p{Script=Han}/u],
  ['Hiragana', /\p{Script=Hiragana}/u],
  ['Katakana', /\p{Script=Katakana}/u],
  ['Hangul', /\p{Script=Hangul}/u],
  ['Bopomofo', /\p{Script=Bopomofo}/u],
];
const NEUTRAL = /[\p{Script=Common}\p{Script=Inherited}]/u;
const OTHER = 'another script';

/**
 * Mixes a writing system would use together (Unicode TS #39's "highly restrictive" level):
 * Japanese, Chinese with Bopomofo and Korean, each with Latin.
 */
const USUAL_MIXES: ReadonlyArray<ReadonlySet<string>> = [
  new Set(['Latin', 'Han', 'Hiragana', 'Katakana']),
  new Set(['Latin', 'Han', 'Bopomofo']),
  new Set(['Latin', 'Han', 'Hangul']),
];

/** The scripts of a piece of text, in the order of the list above. */
function scriptsOf(text: string): string[] {
  const found = new Set<string>();
  for (const char of text) {
    if (NEUTRAL.test(char)) continue;
    found.add(SCRIPTS.find(([, pattern]) => pattern.test(char))?.[0] ?? OTHER);
  }
  return [...SCRIPTS.map(([name]) => name), OTHER].filter((name) => found.has(name));
}

function mixes(scripts: readonly string[]): boolean {
  return scripts.length > 1 && !USUAL_MIXES.some((usual) => scripts.every((s) => usual.has(s)));
}

/** Why an address may pose as another's, for the operator's eyes. */
export type EmailFlag =
  | { kind: 'hidden-characters' }
  | { kind: 'compatibility-forms' }
  | { kind: 'mixed-scripts'; part: 'local' | 'domain'; scripts: string[] };

/**
 * What an operator should look at twice in an account's email: characters that show nothing
 * (accounts made before they were refused) or a local part, or one label of the domain, that
 * mixes scripts (`аlice` with a Cyrillic `а`). Each domain label is read apart: an
 * internationalised name under a Latin top-level domain (`пример.com`) mixes nothing.
 * Letters in a styled or fullwidth form (`𝐚lice`, `ａlice`) are flagged by their NFKC form.
 * Addresses wholly in a look-alike script (`аlісе`, all Cyrillic) are not caught.
 */
export function emailFlags(email: string): EmailFlag[] {
  const flags: EmailFlag[] = [];
  if (hasHiddenCharacters(email)) flags.push({ kind: 'hidden-characters' });
  // Styled and fullwidth letters (`𝐚`, `ａ`) are Common or Latin, so no script mix shows them;
  // their compatibility form (NFKC) is the plain letter they pose as.
  if (email.normalize('NFKC') !== email) flags.push({ kind: 'compatibility-forms' });
  const at = email.lastIndexOf('@');
  const local = at === -1 ? email : email.slice(0, at);
  const localScripts = scriptsOf(local);
  if (mixes(localScripts)) flags.push({ kind: 'mixed-scripts', part: 'local', scripts: localScripts });
  if (at !== -1) {
    for (const label of email.slice(at + 1).split('.')) {
      const scripts = scriptsOf(label);
      if (mixes(scripts)) {
        flags.push({ kind: 'mixed-scripts', part: 'domain', scripts });
        break;
      }
    }
  }
  return flags;
}
