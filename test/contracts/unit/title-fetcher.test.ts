// The TitleFetcher contract on HttpTitleFetcher, against a server on 127.0.0.1.
import { describeTitleFetcherContract } from '../title-fetcher-contract.ts';
import { HttpTitleFetcher } from '../../../src/adapters/title/http-title-fetcher.ts';

describeTitleFetcherContract('HttpTitleFetcher', () => ({
  open: new HttpTitleFetcher({ allowPrivate: true, timeoutMs: 2000 }),
  guarded: new HttpTitleFetcher({ allowPrivate: false, timeoutMs: 2000 }),
}));
