import type { AuditActor } from '../../core/audit/audit-entry.ts';
import type { QrLogoWriter } from './qr-logo-upload.ts';
import type { QrLogo } from '../images/qr-logo-input.ts';

/**
 * Where links' logos are kept (storage's SqlQrLogoStore), as both doors use it: read to draw a
 * code, saved through saveLogo, removed. The store joins every read and write on its owner's link.
 */
export interface QrLogoStore extends QrLogoWriter {
  get(accountId: number, linkId: number): Promise<QrLogo | null>;
  /** Writes the link's audit entry with it, in one transaction. */
  remove(accountId: number, linkId: number, now: number, actor: AuditActor): Promise<void>;
}
