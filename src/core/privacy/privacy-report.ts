import { CLICK_ID_PARAM } from '../conversions/click-id-param.ts';
import { RULE_COOKIE_DAYS, RULE_COOKIE_PREFIX } from '../rules/rule-cookie.ts';
import { PEOPLE_TABLES, VISITOR_TABLES, type DataTable, type Retention } from './data-tables.ts';
import {
  CONSENT_COOKIE,
  CONSENT_COOKIE_DAYS,
  STATS_UNLOCK_COOKIE_PREFIX,
  UNLOCK_COOKIE_HOURS,
  UNLOCK_COOKIE_PREFIX,
} from './visitor-cookies.ts';

/** The running configuration the report reads its days and its consent from. */
export interface PrivacySettings {
  clickRetentionDays: number;
  auditRetentionDays: number;
  pixelConsent: 'ask' | 'implied' | 'never';
}

/** Counts a table's rows (the storage adapter); only names from the description are asked. */
export interface TableCounts {
  count(tables: readonly string[]): Promise<Record<string, number>>;
}

/** A retention as told: its days (null: no fixed number) and the sentence. */
export interface RetentionText {
  days: number | null;
  text: string;
}

export interface DescribedTable {
  table: string;
  purpose: string;
  retention: RetentionText;
  columns: { name: string; holds: string }[];
}

export interface VisitorCookie {
  name: string;
  purpose: string;
  when: string;
  max_age_seconds: number;
}

/** What /privacy shows: what a click stores, for how long, and what a visit may be given. */
export interface VisitorNotice {
  not_stored: { what: string; why: string }[];
  tables: DescribedTable[];
  cookies: VisitorCookie[];
  parameters: { name: string; purpose: string; valid_days: number | null }[];
}

export interface InventoryRow {
  table: string;
  subject: DataTable['subject'];
  purpose: string;
  rows: number;
  retention: RetentionText;
}

const DAY_S = 86_400;

function retentionOf(retention: Retention, settings: PrivacySettings): RetentionText {
  if (retention.kind === 'while') return { days: null, text: retention.text };
  const days =
    retention.kind === 'days'
      ? retention.days
      : retention.setting === 'CLICK_RETENTION_DAYS'
        ? settings.clickRetentionDays
        : settings.auditRetentionDays;
  const setting = retention.kind === 'setting' ? ` (${retention.setting})` : '';
  if (days === 0) return { days: null, text: `kept for ever${setting}` };
  return { days, text: `deleted after ${days} day${days === 1 ? '' : 's'}${setting}` };
}

function described(table: DataTable, settings: PrivacySettings): DescribedTable {
  return {
    table: table.table,
    purpose: table.purpose,
    retention: retentionOf(table.retention, settings),
    columns: Object.entries(table.columns).map(([name, holds]) => ({ name, holds })),
  };
}

function cookies(settings: PrivacySettings): VisitorCookie[] {
  const unlock = UNLOCK_COOKIE_HOURS * 3600;
  return [
    {
      name: `${RULE_COOKIE_PREFIX}<link id>`,
      purpose:
        'Returning visitor: present means "has followed this link"; it holds the split variants drawn, so a visitor keeps theirs.',
      when: 'only on links whose rules ask about returning visitors or split traffic',
      max_age_seconds: RULE_COOKIE_DAYS * DAY_S,
    },
    ...(settings.pixelConsent === 'ask'
      ? [
          {
            name: CONSENT_COOKIE,
            purpose: 'Your answer to "Allow tracking?" (yes or no), so you are asked once.',
            when: 'only after answering the consent page of a link with tracking pixels',
            max_age_seconds: CONSENT_COOKIE_DAYS * DAY_S,
          },
        ]
      : []),
    {
      name: `${UNLOCK_COOKIE_PREFIX}<link id>`,
      purpose: 'Unlock: a signature of the link and its password hash, never the password.',
      when: 'only after the right password of a password-protected link',
      max_age_seconds: unlock,
    },
    {
      name: `${STATS_UNLOCK_COOKIE_PREFIX}<link id>`,
      purpose: 'Unlock of a password-protected statistics page, the same way.',
      when: "only after the right password of a link's statistics page",
      max_age_seconds: unlock,
    },
  ];
}

/**
 * The privacy page, /admin/data and `linkpix privacy report`, from one description
 * (data-tables.ts) and the settings in force, so what they say is what the code does.
 */
export class PrivacyReport {
  constructor(
    private readonly settings: PrivacySettings,
    private readonly counts: TableCounts,
  ) {}

  notice(): VisitorNotice {
    const clickDays = this.settings.clickRetentionDays;
    return {
      not_stored: [
        {
          what: 'the IP address',
          why: 'read for the country and city and the visitor hash, then forgotten; only guesses at a link password are counted against it, in memory or Redis and never in the database, for the attempt limit’s window',
        },
        { what: 'the raw User-Agent', why: 'read for the browser, platform, device and bots, then forgotten' },
        { what: 'the referring page', why: 'only its host name is kept' },
        { what: 'any name, email or account of a visitor', why: 'a visitor never signs in' },
      ],
      tables: VISITOR_TABLES.map((t) => described(t, this.settings)),
      cookies: cookies(this.settings),
      parameters: [
        {
          name: CLICK_ID_PARAM,
          purpose:
            "Added to the destination of links that track conversions: a signed click id (the link, the time, the rule and variant, random bits), so the owner's site can report a sale for the click. It names no one.",
          valid_days: clickDays === 0 ? null : clickDays,
        },
      ],
    };
  }

  /** Every table about visits or people, with its row count now and its retention. */
  async inventory(): Promise<InventoryRow[]> {
    const tables = [...VISITOR_TABLES, ...PEOPLE_TABLES];
    const rows = await this.counts.count(tables.map((t) => t.table));
    return tables.map((t) => ({
      table: t.table,
      subject: t.subject,
      purpose: t.purpose,
      rows: rows[t.table] ?? 0,
      retention: retentionOf(t.retention, this.settings),
    }));
  }

  /** The CLI's answer: the notice, the settings it read, and the inventory. */
  async report(): Promise<{ settings: PrivacySettings; visitors: VisitorNotice; tables: InventoryRow[] }> {
    return { settings: { ...this.settings }, visitors: this.notice(), tables: await this.inventory() };
  }
}
