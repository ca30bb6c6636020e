import { readFile } from 'node:fs/promises';
import { setImmediate as turn } from 'node:timers/promises';
import type { RedirectDomain, RedirectLink } from '../../core/redirect/redirect-link.ts';
import { fromSnapshot, type SnapshotDomain, type SnapshotRow } from '../../core/redirect/redirect-snapshot.ts';
import {
  SNAPSHOT_MAGIC,
  snapshotHmac,
  snapshotKeyId,
  trailerHolds,
  type SnapshotHeader,
  type SnapshotSecrets,
} from './snapshot-format.ts';

/** Bytes hashed, and lines read, between two turns of the event loop while a file is loaded. */
const HASH_SLICE = 1 << 20;
const LINE_SLICE = 2000;
/** Links compiled from the file kept at once; past it, they are compiled again. */
const COMPILED_MAX = 10_000;

export interface SnapshotReaderOptions {
  path: string;
  /** snapshotOrigin(APP_URL): a file of another origin is foreign. */
  origin: string;
  /** The app's own host: the key of links of no custom domain. */
  appHost: string;
  /** The key id of this deployment's secrets, once read from the database: a file under another is foreign. */
  expectedKeyId?: () => string | null;
  /** Told once per file refused: why. */
  onRefused?: (reason: string) => void;
}

/** A snapshot file, verified and loaded. */
export class LoadedSnapshot {
  private readonly compiled = new Map<string, RedirectLink>();

  constructor(
    readonly header: SnapshotHeader,
    readonly secrets: SnapshotSecrets,
    /** Each link's line (its JSON), by `host alias` (lower case), the app's host as ''. */
    private readonly links: Map<string, string>,
    private readonly domains: Map<string, SnapshotDomain>,
    private readonly appHost: string,
  ) {}

  get writtenAt(): number {
    return this.header.writtenAt;
  }

  get size(): number {
    return this.links.size;
  }

  /** The link answering `alias` (lower case) on `host` (the cache's name: the app's host or a domain's). */
  link(host: string, alias: string): RedirectLink | undefined {
    const key = `${host === this.appHost ? '' : host} ${alias}`;
    const hit = this.compiled.get(key);
    if (hit !== undefined) return hit;
    const line = this.links.get(key);
    if (line === undefined) return undefined;
    const link = fromSnapshot((JSON.parse(line) as SnapshotRow).link);
    if (this.compiled.size >= COMPILED_MAX) this.compiled.clear();
    this.compiled.set(key, link);
    return link;
  }

  hasDomain(host: string): boolean {
    return this.domains.has(host);
  }

  domain(host: string): RedirectDomain | null {
    const found = this.domains.get(host);
    if (found === undefined) return null;
    const { name: _name, ...domain } = found;
    return domain;
  }
}

/**
 * Reads the snapshot file once it is needed (the database cannot answer) and keeps it until told
 * the file changed. A file that is missing, damaged (its HMAC), of another format version or
 * foreign (another deployment's key id or origin) is never served: it is refused with one line
 * and read again only once a new file is written.
 */
export class SnapshotReader {
  private loading: Promise<LoadedSnapshot | null> | null = null;

  constructor(private readonly options: SnapshotReaderOptions) {}

  /** The snapshot, verified; null when there is none that may be served. */
  load(): Promise<LoadedSnapshot | null> {
    this.loading ??= this.read();
    return this.loading;
  }

  /** A new file was written: read that one next time. */
  discard(): void {
    this.loading = null;
  }

  private async read(): Promise<LoadedSnapshot | null> {
    let data: Buffer;
    try {
      data = await readFile(this.options.path);
    } catch (error) {
      this.refuse(`the redirect snapshot ${this.options.path} cannot be read (${codeOf(error)})`);
      return null;
    }
    const refused = await verify(data, this.options);
    if (typeof refused === 'string') {
      this.refuse(`the redirect snapshot ${this.options.path} is not served: ${refused}`);
      return null;
    }
    return loadLines(refused, this.options.appHost);
  }

  private refuse(reason: string): void {
    this.options.onRefused?.(reason);
  }
}

interface Verified {
  header: SnapshotHeader;
  secrets: SnapshotSecrets;
  /** The domain and link lines. */
  body: string[];
}

/** The file's parts, or why it is refused. */
async function verify(data: Buffer, options: SnapshotReaderOptions): Promise<Verified | string> {
  const text = data.toString('utf8');
  const lines = text.split('\n');
  // Written with a newline after the trailer: a file cut short has none.
  if (lines.length < 5 || lines.pop() !== '') return 'it is cut short';
  if (lines[0] !== SNAPSHOT_MAGIC) return 'it is not a snapshot of this format version';
  let header: SnapshotHeader;
  let secrets: SnapshotSecrets;
  try {
    header = JSON.parse(lines[1]!) as SnapshotHeader;
    secrets = (JSON.parse(lines[2]!) as { secrets: SnapshotSecrets }).secrets;
  } catch {
    return 'its header is damaged';
  }
  if (typeof secrets?.unlockCookie !== 'string' || typeof header?.writtenAt !== 'number')
    return 'its header is damaged';
  const trailer = lines.pop()!;
  const signed = data.length - Buffer.byteLength(trailer) - 1;
  const hmac = snapshotHmac(secrets);
  for (let at = 0; at < signed; at += HASH_SLICE) {
    hmac.update(data.subarray(at, Math.min(signed, at + HASH_SLICE)));
    await turn();
  }
  if (!trailerHolds(trailer, hmac.digest())) return 'its checksum does not match (a damaged file)';
  if (header.keyId !== snapshotKeyId(secrets)) return 'its key id is not its secrets';
  if (header.origin !== options.origin) return 'it was written for another APP_URL';
  const expected = options.expectedKeyId?.() ?? null;
  if (expected !== null && expected !== header.keyId) return "it was written under another deployment's secrets";
  return { header, secrets, body: lines.slice(3) };
}

async function loadLines({ header, secrets, body }: Verified, appHost: string): Promise<LoadedSnapshot> {
  const links = new Map<string, string>();
  const domains = new Map<string, SnapshotDomain>();
  for (let i = 0; i < body.length; i++) {
    const line = body[i]!;
    if (line.startsWith('L ')) {
      const json = line.slice(2);
      // Only the key is read now: the link is parsed and compiled when a visit asks for it.
      const row = JSON.parse(json) as SnapshotRow;
      links.set(`${row.host ?? ''} ${row.link.alias.toLowerCase()}`, json);
    } else if (line.startsWith('D ')) {
      const domain = JSON.parse(line.slice(2)) as SnapshotDomain;
      domains.set(domain.name, domain);
    }
    if (i % LINE_SLICE === LINE_SLICE - 1) await turn();
  }
  return new LoadedSnapshot(header, secrets, links, domains, appHost);
}

function codeOf(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? String(error);
}
