/** Learns a page's title; resolves null when it cannot (never rejects). */
export interface TitleFetcher {
  fetchTitle(url: string): Promise<string | null>;
}
