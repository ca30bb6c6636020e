import type { WebFeature } from '../feature.ts';

/** /links/new, /links/{id}/edit, /links/{id}/delete, /links/{id}/qr (issue 16): being built. */
export const linkFormPages: WebFeature = () => {};
