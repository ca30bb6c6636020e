import type { WebFeature } from '../feature.ts';

/** /account and /account/api-keys (issue 16): being built. */
export const accountPages: WebFeature = () => {};
