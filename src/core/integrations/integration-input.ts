import { FieldErrorBag } from '../shared/errors.ts';
import { messages } from '../shared/messages.ts';
import { isIntegrationType, type IntegrationType } from './integration.ts';

export interface IntegrationInput {
  type?: unknown;
  secret?: unknown;
}

/** A signing secret is printable text: Stripe's `whsec_…`, Shopify's app secret. */
const SECRET = /^[\x21-\x7e]+$/;
const SECRET_MAX = 255;

/** Both fields checked, each bad one named. */
export function checkIntegrationInput(input: IntegrationInput): { type: IntegrationType; secret: string } {
  const bag = new FieldErrorBag();
  if (input.type === undefined || input.type === null || input.type === '') bag.add('type', messages.required('type'));
  else if (!isIntegrationType(input.type)) bag.add('type', messages.selected('type'));
  const secret = typeof input.secret === 'string' ? input.secret.trim() : input.secret;
  if (secret === undefined || secret === null || secret === '') bag.add('secret', messages.required('secret'));
  else if (typeof secret !== 'string') bag.add('secret', messages.string('secret'));
  else if (secret.length > SECRET_MAX) bag.add('secret', messages.maxChars('secret', SECRET_MAX));
  else if (!SECRET.test(secret)) bag.add('secret', messages.invalid('secret'));
  bag.throwIfAny();
  return { type: input.type as IntegrationType, secret: secret as string };
}
