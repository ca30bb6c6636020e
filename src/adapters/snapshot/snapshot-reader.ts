import type { Hmac } from 'node:crypto';
import { createReadStream } from 'node:fs';
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

/** Bytes read, hashed and parsed at a time, between two turns of the event loop, while a file is loaded. */
const PIECE_BYTES = 256 * 1024;
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
    const { path } = this.options;
    let parse: SnapshotParse;
    try {
      parse = await parsePieces(path);
    } catch (error) {
      this.refuse(`the redirect snapshot ${path} cannot be read (${codeOf(error)})`);
      return null;
    }
    const refused = parse.refused ?? checked(parse, this.options);
    if (refused !== null) {
      this.refuse(`the redirect snapshot ${path} is not served: ${refused}`);
      return null;
    }
    return new LoadedSnapshot(parse.header!, parse.secrets!, parse.links, parse.domains, this.options.appHost);
  }

  private refuse(reason: string): void {
    this.options.onRefused?.(reason);
  }
}

/**
 * Reads the file a piece at a time, each piece hashed and its lines parsed before the next is
 * read, the event loop turning between pieces: a large file never holds the thread, nor is it
 * held whole beside what is kept of it. Stops at the first piece that makes it refused.
 */
async function parsePieces(path: string): Promise<SnapshotParse> {
  const parse = new SnapshotParse();
  const file = createReadStream(path, { highWaterMark: PIECE_BYTES });
  try {
    for await (const piece of file as AsyncIterable<Buffer>) {
      parse.piece(piece);
      if (parse.refused !== null) break;
      await turn();
    }
  } finally {
    file.destroy();
  }
  if (parse.refused === null) parse.end();
  return parse;
}

/** What only the whole file tells: its checksum, then whose it is. */
function checked(parse: SnapshotParse, options: SnapshotReaderOptions): string | null {
  const { header, secrets } = parse;
  if (!parse.checksumHolds()) return 'its checksum does not match (a damaged file)';
  if (header!.keyId !== snapshotKeyId(secrets!)) return 'its key id is not its secrets';
  if (header!.origin !== options.origin) return 'it was written for another APP_URL';
  const expected = options.expectedKeyId?.() ?? null;
  if (expected !== null && expected !== header!.keyId) return "it was written under another deployment's secrets";
  return null;
}

const NEWLINE = 0x0a;

/**
 * The file's lines as they come, piece by piece. Every line is hashed once the next one begins
 * (the last is the trailer, which the HMAC is not of); the domain and link lines are kept, a
 * link as its JSON, parsed again and compiled when a visit asks for it. Nothing is served before
 * the whole file is read and its checksum holds.
 */
class SnapshotParse {
  refused: string | null = null;
  header: SnapshotHeader | null = null;
  secrets: SnapshotSecrets | null = null;
  readonly links = new Map<string, string>();
  readonly domains = new Map<string, SnapshotDomain>();
  private hmac: Hmac | null = null;
  /** The three lines before the secrets are known, hashed once they are. */
  private readonly opening: Buffer[] = [];
  /** The last whole line: hashed once another follows, else the trailer. */
  private held: Buffer | null = null;
  /** The bytes after the last newline: the start of a line the next piece ends. */
  private rest: Buffer = Buffer.alloc(0);
  private lines = 0;
  /** A body line that is not what the writer writes: the checksum says why (a writer writes none). */
  private damaged = false;

  piece(bytes: Buffer): void {
    const data = this.rest.length === 0 ? bytes : Buffer.concat([this.rest, bytes]);
    let from = 0;
    for (let at = data.indexOf(NEWLINE); at !== -1 && this.refused === null; at = data.indexOf(NEWLINE, from)) {
      this.line(data.subarray(from, at));
      from = at + 1;
    }
    // Copied: the piece's buffer is not kept for a few bytes of it.
    this.rest = Buffer.from(data.subarray(from));
  }

  /** The file has ended. Written with a newline after the trailer: a file cut short has none. */
  end(): void {
    if (this.rest.length > 0 || this.lines < 4 || this.hmac === null) this.refused = 'it is cut short';
  }

  checksumHolds(): boolean {
    return !this.damaged && trailerHolds(this.held!.toString('latin1'), this.hmac!.digest());
  }

  private line(bytes: Buffer): void {
    const previous = this.held;
    this.held = bytes;
    this.lines++;
    if (this.lines <= 3) return this.opened(bytes);
    if (previous === null) return;
    this.hmac!.update(previous).update('\n');
    if (!this.damaged) this.body(previous.toString('utf8'));
  }

  /** The format's line, the header, the secrets: what the rest is checked and kept with. */
  private opened(bytes: Buffer): void {
    this.held = null;
    this.opening.push(bytes);
    if (this.lines === 1 && bytes.toString('utf8') !== SNAPSHOT_MAGIC) {
      this.refused = 'it is not a snapshot of this format version';
    }
    if (this.lines < 3) return;
    try {
      this.header = JSON.parse(this.opening[1]!.toString('utf8')) as SnapshotHeader;
      this.secrets = (JSON.parse(bytes.toString('utf8')) as { secrets: SnapshotSecrets }).secrets;
    } catch {
      this.refused = 'its header is damaged';
      return;
    }
    if (typeof this.secrets?.unlockCookie !== 'string' || typeof this.header?.writtenAt !== 'number') {
      this.refused = 'its header is damaged';
      return;
    }
    this.hmac = snapshotHmac(this.secrets);
    for (const opening of this.opening) this.hmac.update(opening).update('\n');
  }

  private body(line: string): void {
    try {
      if (line.startsWith('L ')) {
        const json = line.slice(2);
        // Only the key is read now: the link is parsed and compiled when a visit asks for it.
        const row = JSON.parse(json) as SnapshotRow;
        this.links.set(`${row.host ?? ''} ${row.link.alias.toLowerCase()}`, json);
      } else if (line.startsWith('D ')) {
        const domain = JSON.parse(line.slice(2)) as SnapshotDomain;
        this.domains.set(domain.name, domain);
      }
    } catch {
      this.damaged = true;
    }
  }
}

function codeOf(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? String(error);
}
