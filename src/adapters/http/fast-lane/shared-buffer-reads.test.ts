// Reads into the shared buffer on a real server socket: that this Node has the internals it
// uses (else the lane would fall back to 'data' events without a word), and the way back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { once } from 'node:events';
import { readAsUsual, readIntoSharedBuffer } from './shared-buffer-reads.ts';

test('a server socket reads into the one shared buffer, then, once read as usual, into Buffers of its own', async () => {
  const reads: Buffer[] = [];
  let next!: () => void;
  const arrived = () => new Promise<void>((resolve) => (next = resolve));
  let accepted!: Socket;
  let shared = false;
  const server = createServer((socket) => {
    accepted = socket;
    shared = readIntoSharedBuffer(socket, (bytes) => {
      reads.push(Buffer.from(bytes));
      reads.push(bytes);
      next();
    });
    socket.resume();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const client = connect((server.address() as AddressInfo).port, '127.0.0.1');
  try {
    await once(client, 'connect');
    let wait = arrived();
    client.write('one');
    await wait;
    wait = arrived();
    client.write('second');
    await wait;
    assert.equal(shared, true, 'this Node lets a server socket read into a buffer of ours');
    const [firstCopy, firstView, secondCopy, secondView] = reads;
    assert.deepEqual([firstCopy!.toString(), secondCopy!.toString()], ['one', 'second']);
    assert.equal(firstView!.buffer, secondView!.buffer, 'both reads landed in the same memory');
    assert.equal(firstView!.toString(), 'sec', 'a read overwrites the one before');

    readAsUsual(accepted);
    const data = once(accepted, 'data');
    client.write('third');
    const [chunk] = (await data) as [Buffer];
    assert.equal(chunk.toString(), 'third');
    assert.notEqual(chunk.buffer, secondView!.buffer, 'a Buffer of its own');
  } finally {
    client.destroy();
    server.close();
  }
});
