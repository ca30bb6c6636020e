import type { ClickGroup, ConversionGroup, ConvertedGroup } from './results.ts';

/** A conversion as stored: one per click id and name (docs/design/rules.md). */
export interface Conversion {
  id: number;
  linkId: number;
  /** The click id as issued (re-encoded by ClickIds.read). */
  clickId: string;
  rule: number | null;
  variant: number | null;
  name: string;
  value: number | null;
  /** ISO 4217, upper case. */
  currency: string | null;
  clickedAt: number;
  createdAt: number;
}

/** Instants (epoch ms) from `from` up to, not including, `to`. */
export interface ClickedIn {
  from: number;
  to: number;
}

export type NewConversion = Omit<Conversion, 'id'>;

export interface ConversionStore {
  /** Stores the conversion unless its click id and name are there already: then the first one, created false. */
  record(conversion: NewConversion): Promise<{ conversion: Conversion; created: boolean }>;
  /** The names a click has converted under, at most `limit` of them. */
  namesOf(clickId: string, limit: number): Promise<string[]>;
  /** The link's click rows (people only) per deciding rule and variant. */
  clickGroups(linkId: number): Promise<ClickGroup[]>;
  /**
   * The link's conversions per rule, variant, name and currency, and the distinct clicks converted
   * per rule and variant; with `clickedIn`, only those of clicks made in it.
   */
  conversionGroups(
    linkId: number,
    clickedIn?: ClickedIn,
  ): Promise<{ byName: ConversionGroup[]; converted: ConvertedGroup[] }>;
}
