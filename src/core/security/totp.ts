/** Time-based one-time passwords (RFC 6238: SHA-1, 6 digits, 30-second steps); an adapter computes them. */
export interface Totp {
  /** A new random secret, in base32 as authenticator apps take it typed. */
  newSecret(): string;
  /** The otpauth:// URI an authenticator app reads from a QR code. */
  uri(secret: string, label: string, issuer: string): string;
  /**
   * The time step a code belongs to when it is right at `now` (one step either side, for clocks
   * that drift), else null. The step, not a yes: a code is accepted once, by its step.
   */
  stepOf(secret: string, code: string, now: number): number | null;
}
