/**
 * The ceiling: node:http answering every request with a fixed 302, nothing else. Run by
 * bench/redirect.ts as a child process, like the linkpix server, on PORT at 127.0.0.1.
 */
import { createServer } from 'node:http';

const headers = { location: 'https://example.com/', 'cache-control': 'no-store', 'content-length': '0' };
const server = createServer((_req, res) => {
  res.writeHead(302, headers);
  res.end();
});
server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
