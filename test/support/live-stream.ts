import type { WebClient } from './web-client.ts';

/** What a live page hears: the stream's raw text so far, its click events, and how to leave. */
export interface LiveStream {
  status: number;
  headers: Headers;
  text(): string;
  /** Every `clicks` event's data, in order. */
  events(): Array<{ clicks: number; links: Record<string, number> }>;
  /** Resolves when the server ended the stream. */
  ended: Promise<void>;
  close(): void;
}

/** Opens GET /account/live as `client`'s browser would (its cookies), reading as it comes. */
export async function openLiveStream(baseUrl: string, client: WebClient): Promise<LiveStream> {
  const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const abort = new AbortController();
  const res = await fetch(`${baseUrl}/account/live`, {
    headers: { cookie, accept: 'text/event-stream' },
    redirect: 'manual',
    signal: abort.signal,
  });
  let text = '';
  const decoder = new TextDecoder();
  const ended = (async () => {
    if (!res.body) return;
    try {
      for await (const chunk of res.body) text += decoder.decode(chunk, { stream: true });
    } catch {
      // Aborted by close().
    }
  })();
  return {
    status: res.status,
    headers: res.headers,
    text: () => text,
    events: () =>
      [...text.matchAll(/^event: clicks\ndata: (.*)\n\n/gm)].map(
        (m) => JSON.parse(m[1]!) as { clicks: number; links: Record<string, number> },
      ),
    ended,
    close: () => abort.abort(),
  };
}

/** The clicks a stream's events add up to: the account's, or one link's. */
export function heardClicks(stream: LiveStream, linkId?: number): number {
  return stream
    .events()
    .reduce((sum, e) => sum + (linkId === undefined ? e.clicks : (e.links[String(linkId)] ?? 0)), 0);
}
