import type { LinkInput } from '../../core/links/link-input.ts';

/**
 * No file carries a password linkpix can use (exports say only that one is set; phpShort keeps
 * it encrypted with its own key). A link that had one is imported disabled, so that it never
 * opens without a password; a statistics page that had one becomes private.
 */
export function withoutSecrets(
  input: LinkInput,
  had: { password: boolean; privacyPassword: boolean },
  notes: string[],
): LinkInput {
  const out = { ...input };
  if (had.password && !out.password) {
    out.disabled = 1;
    notes.push('The link had a password the file does not carry: imported disabled; set a password, then enable it.');
  }
  if (out.privacy === 2 && !out.privacy_password) {
    out.privacy = 1;
    if (had.privacyPassword)
      notes.push('The statistics password is not in the file: the statistics page is private instead.');
  }
  return out;
}

export const truthy = (v: unknown) => v === true || v === 1 || v === '1' || v === 'true';
