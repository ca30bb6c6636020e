import type { SocialCard } from './social-card.ts';

/** What a page says of itself: its <title> and its og: tags (a link preview's defaults). */
export interface PageFacts {
  title: string | null;
  /** og:title, og:description and og:image; null when the page has none of them. */
  card: SocialCard | null;
}

/** Learns a page's title; resolves null when it cannot (never rejects). */
export interface TitleFetcher {
  fetchTitle(url: string): Promise<string | null>;
  /** The title and the og: tags in one fetch; absent: only titles are learnt. */
  fetchPage?(url: string): Promise<PageFacts | null>;
}
