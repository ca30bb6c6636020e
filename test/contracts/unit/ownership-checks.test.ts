// The DomainOwnershipCheck contract on DnsTxtCheck (a resolver answering from a table) and on
// HttpFileCheck (names sent to a server on 127.0.0.1 by an injected lookup): no real DNS.
import { after, before } from 'node:test';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo, LookupFunction } from 'node:net';
import { describeOwnershipCheckContract } from '../ownership-check-contract.ts';
import { DnsTxtCheck } from '../../../src/adapters/domain-ownership/dns-txt-check.ts';
import { HttpFileCheck } from '../../../src/adapters/domain-ownership/http-file-check.ts';

// Short: the tests of a place that never answers wait this long.
const TIMEOUT_MS = 300;

describeOwnershipCheckContract('DnsTxtCheck', () => {
  const records = new Map<string, string[][] | 'fail' | 'hang'>();
  const resolveTxt = async (name: string): Promise<string[][]> => {
    const answer = records.get(name);
    if (answer === 'hang') return new Promise<string[][]>(() => {});
    if (answer === undefined || answer === 'fail')
      throw Object.assign(new Error(`queryTxt ESERVFAIL ${name}`), { code: answer ? 'ESERVFAIL' : 'ENOTFOUND' });
    return answer;
  };
  return {
    check: new DnsTxtCheck({ timeoutMs: TIMEOUT_MS, resolveTxt }),
    // A neighbouring record beside the token, as a domain's other TXT records sit.
    publish: (target, text) => records.set(target.txtName, [['v=spf1 -all'], [text]]),
    fail: (target) => records.set(target.txtName, 'fail'),
    hang: (target) => records.set(target.txtName, 'hang'),
    place: (target) => target.txtName,
  };
});

// One server for every HttpFileCheck subject: files by path, answered as the test set them.
type File = { body: string } | 'fail' | 'hang';
const files = new Map<string, File>();
const server = http.createServer((req, res) => {
  const file = files.get(`${req.headers.host?.replace(/:\d+$/, '')}${req.url}`);
  if (file === 'hang') return;
  if (file === undefined || file === 'fail') res.writeHead(file ? 500 : 404).end();
  else res.end(file.body);
});
let port = 0;
before(async () => {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  port = (server.address() as AddressInfo).port;
});
after(async () => {
  server.closeAllConnections();
  await new Promise((done) => server.close(done));
});

const toLoopback: LookupFunction = (_name, options, callback) => {
  if (options.all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
  else callback(null, '127.0.0.1', 4);
};
const keyOf = (fileUrl: string) => fileUrl.replace(/^http:\/\//, '');

describeOwnershipCheckContract('HttpFileCheck', () => ({
  check: new HttpFileCheck({ allowPrivate: true, timeoutMs: TIMEOUT_MS, lookup: toLoopback, port }),
  publish: (target, text) => files.set(keyOf(target.fileUrl), { body: `${text}\n` }),
  fail: (target) => files.set(keyOf(target.fileUrl), 'fail'),
  hang: (target) => files.set(keyOf(target.fileUrl), 'hang'),
  place: (target) => target.fileUrl,
}));
