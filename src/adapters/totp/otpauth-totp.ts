import { Secret, TOTP } from 'otpauth';
import type { Totp } from '../../core/security/totp.ts';

const PERIOD = 30;

/** RFC 6238 as every authenticator app reads it: SHA-1, six digits, 30 seconds, 160-bit secrets. */
export class OtpauthTotp implements Totp {
  newSecret(): string {
    return new Secret({ size: 20 }).base32;
  }

  uri(secret: string, label: string, issuer: string): string {
    return new TOTP({ issuer, label, secret: Secret.fromBase32(secret), period: PERIOD }).toString();
  }

  stepOf(secret: string, code: string, now: number): number | null {
    if (!/^\d{6}$/.test(code)) return null;
    const delta = TOTP.validate({
      token: code,
      secret: Secret.fromBase32(secret),
      period: PERIOD,
      timestamp: now,
      window: 1,
    });
    return delta === null ? null : TOTP.counter({ period: PERIOD, timestamp: now }) + delta;
  }
}
