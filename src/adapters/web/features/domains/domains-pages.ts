import type { WebFeature } from '../feature.ts';

/** /domains (issue 16): being built. */
export const domainsPages: WebFeature = () => {};
