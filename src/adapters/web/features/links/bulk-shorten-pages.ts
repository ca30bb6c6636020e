import type { WebFeature } from '../feature.ts';

/** /links/bulk (issue 16): being built. */
export const bulkShortenPages: WebFeature = () => {};
