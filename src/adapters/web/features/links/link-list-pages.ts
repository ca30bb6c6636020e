import type { WebFeature } from '../feature.ts';

/** GET /links and its bulk actions (issue 16): being built. */
export const linkListPages: WebFeature = () => {};
