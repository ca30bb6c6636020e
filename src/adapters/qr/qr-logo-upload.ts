import type { LogoProblem, QrLogo } from '../images/qr-logo-input.ts';
import type { AuditActor } from '../../core/audit/audit-entry.ts';
import type { ImageThreads } from '../images/image-threads.ts';

/** Where a link's logo is kept: the store joins every read and write on its owner's link. */
export interface QrLogoWriter {
  /** Writes the link's audit entry with it, in one transaction. */
  put(accountId: number, linkId: number, logo: QrLogo, now: number, actor: AuditActor): Promise<boolean>;
}

/** What saving a logo needs: where it is kept, and the threads that read it (both doors' contexts have them). */
export interface LogoSaving {
  qrLogos: QrLogoWriter;
  images: Pick<ImageThreads, 'run'>;
}

/** An upload as a multipart reader saw it: the file's bytes (none, or an empty part) and whether it was cut at the limit. */
export interface LogoUpload {
  bytes: Uint8Array | null;
  tooLarge: boolean;
}

/** Why an upload was refused: a problem of the file itself, or no file at all. */
export type UploadProblem = LogoProblem | 'missing';

/**
 * The one rule set for a link's logo, whichever door it comes through (the web app's QR page, the
 * API's PUT): read by its bytes (images/qr-logo-input.ts) in an image thread, an SVG rebuilt by the
 * sanitiser there, then stored. A refusal writes nothing.
 */
export async function saveLogo(
  { qrLogos, images }: LogoSaving,
  accountId: number,
  linkId: number,
  upload: LogoUpload,
  now: number,
  actor: AuditActor,
): Promise<{ logo: QrLogo } | { problem: UploadProblem }> {
  if (upload.tooLarge) return { problem: 'tooLarge' };
  if (upload.bytes === null || upload.bytes.length === 0) return { problem: 'missing' };
  const read = await images.run('readLogo', upload.bytes);
  if ('problem' in read) return read;
  await qrLogos.put(accountId, linkId, read.logo, now, actor);
  return read;
}
