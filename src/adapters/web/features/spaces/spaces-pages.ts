import type { WebFeature } from '../feature.ts';

/** /spaces (issue 16): being built. */
export const spacesPages: WebFeature = () => {};
