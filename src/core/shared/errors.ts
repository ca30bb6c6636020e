/**
 * The closed set of failures the core reports. Only the HTTP adapter turns them into
 * status codes and envelopes; the CLI turns them into messages and exit codes.
 */
export type FieldErrors = Record<string, string[]>;

export class NotFoundError extends Error {
  readonly kind = 'not_found' as const;
  constructor(readonly resource: string) {
    super(`${resource} not found`);
  }
}

/** Input that breaks a rule; every bad field is listed with its messages. */
export class ValidationError extends Error {
  readonly kind = 'invalid' as const;
  constructor(readonly fields: FieldErrors) {
    super(`Invalid ${Object.keys(fields).join(', ')}`);
  }

  static of(field: string, message: string): ValidationError {
    return new ValidationError({ [field]: [message] });
  }
}

export class UnauthenticatedError extends Error {
  readonly kind = 'unauthenticated' as const;
  constructor() {
    super('Unauthenticated');
  }
}

/**
 * The caller is known but may not do this (docs/design/teams.md): `missing` names the role the action
 * needs or the scope the key lacks. A resource the caller may not even see is a NotFoundError.
 */
export class ForbiddenError extends Error {
  readonly kind = 'forbidden' as const;
  constructor(readonly missing: string) {
    super(`Forbidden: ${missing}`);
  }
}

/** A single-use thing (an invitation) that was used, revoked or has expired. */
export class GoneError extends Error {
  readonly kind = 'gone' as const;
  constructor(readonly resource: string) {
    super(`${resource} is no longer valid`);
  }
}

/** Too many guesses of a secret (a sign-in): refused before the secret was looked at. */
export class TooManyAttemptsError extends Error {
  readonly kind = 'too_many_attempts' as const;
  /** `reason`: what was limited, told to the client (absent: the contract's "Too Many Attempts."). */
  constructor(
    readonly retryAfterSeconds: number,
    readonly reason?: string,
  ) {
    super(reason ?? 'Too many attempts');
  }
}

/**
 * Something the request needs (the database) cannot be reached just now: the request may
 * succeed if tried again, and nothing it asked for was done.
 */
export class UnavailableError extends Error {
  readonly kind = 'unavailable' as const;
  constructor(
    readonly dependency: string,
    options?: { cause?: unknown },
  ) {
    super(`The ${dependency} is unavailable`, options);
  }
}

/** Where a check names what is wrong with a field: a FieldErrorBag, or a part of one. */
export interface FieldFaults {
  add(field: string, message: string): void;
}

/** Collects field errors so a request reports all its faults at once. */
export class FieldErrorBag implements FieldFaults {
  private readonly errors: FieldErrors = {};

  add(field: string, message: string): void {
    (this.errors[field] ??= []).push(message);
  }

  has(field: string): boolean {
    return field in this.errors;
  }

  get empty(): boolean {
    return Object.keys(this.errors).length === 0;
  }

  throwIfAny(): void {
    if (!this.empty) throw new ValidationError({ ...this.errors });
  }
}

/** The fields a check would refuse, without throwing: lets an adapter merge them with its own. */
export async function faultsOfCheck(check: () => Promise<unknown>): Promise<FieldErrors> {
  try {
    await check();
    return {};
  } catch (error) {
    if (error instanceof ValidationError) return error.fields;
    throw error;
  }
}
