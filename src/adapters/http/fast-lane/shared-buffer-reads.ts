import type { Socket } from 'node:net';

/**
 * A socket's reads into one buffer shared by every lane connection, instead of a new Buffer
 * for every read. This is net.Socket's own `onread` mode, which Node offers only for sockets a
 * program creates itself; a server's sockets get it here through the same internals the
 * constructor sets (the handle's `useUserBuffer` and the socket's kBuffer and kBufferCb). A
 * Buffer a read cost the main thread its allocation, Readable.push and a 'data' event, and
 * freeing its memory later cost a V8 helper thread: about 0.9 µs of CPU a request on the CI VM
 * (a raw server answering a fixed 302 under wrk, 8.0 → 7.1 µs).
 *
 * The bytes given to onBytes are valid only until it returns: the next read, of any
 * connection, overwrites them. Where Node's internals are not as expected, nothing is changed
 * and the caller reads 'data' events as usual.
 */
const SHARED = Buffer.allocUnsafe(64 * 1024);

interface UserBufferHandle {
  useUserBuffer(buffer: Uint8Array): void;
}

type OnRead = (nread: number, buffer: Buffer) => boolean | undefined;
type Internals = { kBuffer: symbol; kBufferCb: symbol };
let internals: Internals | null | undefined;

function internalsOf(socket: Socket): Internals | null {
  if (internals !== undefined) return internals;
  // Every net.Socket has both, null unless it reads into a buffer of its own.
  const symbols = Object.getOwnPropertySymbols(socket);
  const kBuffer = symbols.find((s) => s.description === 'kBuffer');
  const kBufferCb = symbols.find((s) => s.description === 'kBufferCb');
  internals = kBuffer && kBufferCb ? { kBuffer, kBufferCb } : null;
  return internals;
}

function handleOf(socket: Socket): UserBufferHandle | null {
  // The handle is the socket's libuv TCP wrap; `_handle` is how Node's own modules reach it.
  const handle = (socket as unknown as { _handle?: Partial<UserBufferHandle> | null })._handle;
  return handle && typeof handle.useUserBuffer === 'function' ? (handle as UserBufferHandle) : null;
}

/** Reads the socket into the shared buffer from now on; false (nothing changed) when that cannot be done here. */
export function readIntoSharedBuffer(socket: Socket, onBytes: (bytes: Buffer) => void): boolean {
  const keys = internalsOf(socket);
  const handle = handleOf(socket);
  if (keys === null || handle === null) return false;
  const record = socket as unknown as Record<symbol, unknown>;
  if (record[keys.kBuffer] !== null) return false; // already reading into a buffer of its own
  const onRead: OnRead = (nread, buffer) => {
    onBytes(buffer.subarray(0, nread));
    return undefined;
  };
  record[keys.kBuffer] = SHARED;
  record[keys.kBufferCb] = onRead;
  handle.useUserBuffer(SHARED);
  return true;
}

/**
 * Reads that reach the socket's own JavaScript again (once node:http has it, which reads the
 * handle itself until it lets go) are copied and pushed into the socket, as Node does without a
 * buffer of its own. The handle cannot be given its usual reading back.
 */
export function readAsUsual(socket: Socket): void {
  const keys = internalsOf(socket);
  if (keys === null) return;
  const onRead: OnRead = (nread, buffer) => socket.push(Buffer.from(buffer.subarray(0, nread)));
  (socket as unknown as Record<symbol, unknown>)[keys.kBufferCb] = onRead;
}
