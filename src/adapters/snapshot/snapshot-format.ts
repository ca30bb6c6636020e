import { createHash, createHmac, timingSafeEqual, type Hmac } from 'node:crypto';

/**
 * The redirect snapshot's file (docs/design/snapshot.md), one JSON value a line:
 *
 *   linkpix-redirect-snapshot 1             the format and its version
 *   {"keyId":…,"origin":…,"writtenAt":…}    the header
 *   {"secrets":{…}}                         the keys a visit uses
 *   D {…}  one verified custom domain a line
 *   L {…}  one enabled link a line ({"host":…,"link":…})
 *   hmac <base64url>                        HMAC-SHA256 of every byte above, the checksum
 *
 * The HMAC's key is derived from the secrets, which every instance of a deployment shares: its
 * digest (the key id) names the deployment without saying anything of the key, and a file whose
 * key id is not this deployment's, or whose origin (APP_URL) is not this instance's, is foreign.
 */
export const SNAPSHOT_MAGIC = 'linkpix-redirect-snapshot 1';

/** The secrets a visit uses, never the seal key or anything it seals. */
export interface SnapshotSecrets {
  unlockCookie: string;
  visitorHash: string;
  clickId: string;
}

export interface SnapshotHeader {
  keyId: string;
  origin: string;
  /** When the writer began reading the database: a change told after it is not in the file. */
  writtenAt: number;
}

/** The HMAC key: a digest of the secrets, under a label of its own so it is no secret's reuse. */
function snapshotKey(secrets: SnapshotSecrets): Buffer {
  return createHash('sha256')
    .update('linkpix redirect snapshot\n')
    .update(JSON.stringify([secrets.unlockCookie, secrets.visitorHash, secrets.clickId]))
    .digest();
}

/** The key's id: 11 characters of its digest, as the seal keys' ids are. */
export function snapshotKeyId(secrets: SnapshotSecrets): string {
  return createHash('sha256').update(snapshotKey(secrets)).digest('base64url').slice(0, 11);
}

/** What a file from another deployment cannot have: a digest of this instance's APP_URL. */
export function snapshotOrigin(appUrl: string): string {
  return createHash('sha256').update(`linkpix origin\n${appUrl}`).digest('base64url').slice(0, 16);
}

export function snapshotHmac(secrets: SnapshotSecrets): Hmac {
  return createHmac('sha256', snapshotKey(secrets));
}

/** The last line, which the HMAC of everything before it is. */
export function trailerLine(digest: Buffer): string {
  return `hmac ${digest.toString('base64url')}\n`;
}

/** Whether `trailer` (the last line, without its newline) holds this digest. */
export function trailerHolds(trailer: string, digest: Buffer): boolean {
  const match = /^hmac ([A-Za-z0-9_-]{43})$/.exec(trailer);
  if (match === null) return false;
  const stated = Buffer.from(match[1]!, 'base64url');
  return stated.length === digest.length && timingSafeEqual(stated, digest);
}
