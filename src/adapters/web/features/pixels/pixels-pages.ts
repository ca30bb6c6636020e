import type { WebFeature } from '../feature.ts';

/** /pixels (issue 16): being built. */
export const pixelsPages: WebFeature = () => {};
