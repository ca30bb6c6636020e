import type { WebFeature } from '../feature.ts';

/** /admin (issue 16): being built. */
export const adminPages: WebFeature = () => {};
