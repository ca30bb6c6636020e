import type { WebFeature } from '../feature.ts';

/** GET /dashboard (issue 16): being built. */
export const dashboardPages: WebFeature = () => {};
