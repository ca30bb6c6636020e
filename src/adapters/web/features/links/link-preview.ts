import type { Visitor } from '../../../../core/redirect/visitor.ts';
import { chooseDestination } from '../../../../core/targeting/choose-destination.ts';
import {
  TARGET_TYPE_VALUES,
  type KeyedTarget,
  type TargetType,
  type Targets,
} from '../../../../core/targeting/target.ts';
import type { LinkFormValues } from './link-form-state.ts';

/** What the preview card shows for a form as it stands (saved or not). */
export interface LinkPreview {
  /** Where the short link lives: the app's URL or a custom domain's, no trailing slash. */
  base: string;
  /** The alias typed, or null: a random one is chosen on create. */
  alias: string | null;
  /** Where this visitor would go; null while the destination is blank. */
  destination: string | null;
  /**
   * The link's title: typed, or the destination's own as the title fetcher read it on save; null
   * while there is none. (The destination's preview image waits for its og: tags to be fetched.)
   */
  title: string | null;
  /** How many URLs take turns, when the rotation acts (the card names the first). */
  rotating: number;
  visitor: Pick<Visitor, 'country' | 'platform' | 'languages'>;
}

function keyed(rows: LinkFormValues['lists']['country'], normalise: (key: string) => string): KeyedTarget[] {
  return rows
    .filter((r) => r.key.trim() !== '' && r.value.trim() !== '')
    .map((r) => ({ key: normalise(r.key.trim()), value: r.value.trim() }));
}

/**
 * The redirect's own choice (core/targeting) over the rows as typed: rows missing a key or a URL
 * are left out, as saving would refuse them. Keys are normalised as the core stores them.
 */
export function previewOf(values: LinkFormValues, base: string, visitor: LinkPreview['visitor']): LinkPreview {
  const type = Number(values.target_type);
  const targets: Targets = {
    country: keyed(values.lists.country, (k) => k.toUpperCase()),
    platform: keyed(values.lists.platform, (k) => k),
    language: keyed(values.lists.language, (k) => k.toLowerCase()),
    rotation: values.lists.rotation.filter((r) => r.value.trim() !== '').map((r) => ({ value: r.value.trim() })),
  };
  const url = values.url.trim();
  const chosen = chooseDestination(
    { url, targetType: (TARGET_TYPE_VALUES.includes(type) ? type : 0) as TargetType, targets },
    visitor,
  );
  const destination = chosen.kind === 'fixed' ? chosen.url : (chosen.entries[0] ?? url);
  const alias = values.alias.trim();
  const title = values.title.trim();
  return {
    base,
    alias: alias === '' ? null : alias,
    title: title === '' ? null : title,
    destination: destination === '' ? null : destination,
    rotating: chosen.kind === 'rotate' ? chosen.entries.length : 0,
    visitor,
  };
}
