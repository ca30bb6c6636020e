import type { AreaDocs, OperationDoc } from './area.ts';
import { accountDocs } from './account.ts';
import { conversionsDocs } from './conversions.ts';
import { domainsDocs } from './domains.ts';
import { integrationsDocs } from './integrations.ts';
import { linksDocs } from './links.ts';
import { pixelsDocs } from './pixels.ts';
import { spacesDocs } from './spaces.ts';
import { statsDocs } from './stats.ts';
import { tagsDocs } from './tags.ts';
import { utmTemplatesDocs } from './utm-templates.ts';
import { webhooksDocs } from './webhooks.ts';
import { workspacesDocs } from './workspaces.ts';

const AREAS: AreaDocs[] = [
  linksDocs,
  statsDocs,
  conversionsDocs,
  pixelsDocs,
  spacesDocs,
  domainsDocs,
  tagsDocs,
  utmTemplatesDocs,
  webhooksDocs,
  integrationsDocs,
  workspacesDocs,
  accountDocs,
];

export type DocumentedOperation = OperationDoc & { tag: AreaDocs['tag'] };

/** Every operation's documentation, keyed by `METHOD /path/{param}`. */
export const OPERATION_DOCS: ReadonlyMap<string, DocumentedOperation> = new Map(
  AREAS.flatMap((area) =>
    Object.entries(area.operations).map(([key, doc]) => [key, { ...doc, tag: area.tag }] as const),
  ),
);
