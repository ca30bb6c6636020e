/**
 * The decimal places of a currency's smallest unit, as Stripe counts them: amounts arrive in it
 * (1999 USD cents is 19.99). Zero-decimal and three-decimal currencies are listed; every other
 * has two.
 */
const ZERO = new Set([
  'BIF',
  'CLP',
  'DJF',
  'GNF',
  'JPY',
  'KMF',
  'KRW',
  'MGA',
  'PYG',
  'RWF',
  'UGX',
  'VND',
  'VUV',
  'XAF',
  'XOF',
  'XPF',
]);
const THREE = new Set(['BHD', 'JOD', 'KWD', 'OMR', 'TND']);

/** An amount in minor units as the decimal a conversion's value holds. */
export function fromMinorUnits(amount: number, currency: string): number {
  const code = currency.toUpperCase();
  const places = ZERO.has(code) ? 0 : THREE.has(code) ? 3 : 2;
  return Number((amount / 10 ** places).toFixed(places));
}
