// The one capped body reader, over real sockets: a body announced larger than the cap is refused
// unread, one that grows past it stops being read, one that ends short of its length is not whole.
import { createServer, type IncomingMessage } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { BodyCutShortError, BodyTooLargeError, readCappedBody } from '../../src/capped-body.js';
import { Readable } from 'node:stream';

describe('readCappedBody', () => {
  let read: (req: IncomingMessage) => Promise<Buffer> = (req) => readCappedBody(req, 16);
  let arrived: (outcome: { reading: Promise<Buffer> }) => void = () => {};
  const server = createServer((req, res) => {
    const outcome = read(req);
    outcome.catch(() => {});
    arrived({ reading: outcome });
    outcome.then(
      (body) => res.end(`ok ${body.length}`),
      (error: Error) => res.writeHead(413, { connection: 'close' }).end(error.name),
    );
  });
  const listening = new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
  const sockets: Socket[] = [];
  afterAll(() => {
    sockets.forEach((socket) => socket.destroy());
    return new Promise((resolve) => server.close(resolve));
  });

  /** Sends a request as raw bytes; resolves with what the reader made of its body. */
  async function send(head: string, body: string, after?: (socket: Socket) => void): Promise<Buffer> {
    // Wrapped: awaiting the reading itself would wait for it to settle.
    const outcome = new Promise<{ reading: Promise<Buffer> }>((resolve) => (arrived = resolve));
    const socket = connect(await listening, '127.0.0.1');
    socket.on('error', () => {});
    sockets.push(socket);
    socket.write(`POST / HTTP/1.1\r\nhost: x\r\n${head}\r\n${body}`);
    const { reading } = await outcome;
    after?.(socket);
    return reading;
  }

  it('reads a body within the cap whole', async () => {
    read = (req) => readCappedBody(req, 16);
    await expect(send('content-length: 16\r\n', '0123456789abcdef')).resolves.toEqual(Buffer.from('0123456789abcdef'));
  });

  it('refuses a body announced larger than the cap without reading it, and stops one that grows past it', async () => {
    read = (req) => readCappedBody(req, 16);
    await expect(send('content-length: 1000000\r\n', 'x')).rejects.toBeInstanceOf(BodyTooLargeError);
    await expect(send('transfer-encoding: chunked\r\n', `20\r\n${'y'.repeat(32)}\r\n`)).rejects.toBeInstanceOf(BodyTooLargeError);
  });

  it('does not take a body that ends short of its Content-Length for whole', async () => {
    read = (req) => readCappedBody(req, 1000);
    // The sender goes away mid-body: Node reports the connection's end, never a whole body.
    await expect(send('content-length: 100\r\n', 'short', (socket) => socket.destroy())).rejects.toMatchObject({ code: 'ECONNRESET' });
  });

  it('does not take a stream that ends short of the length its headers announce for whole', async () => {
    const source = Object.assign(Readable.from([Buffer.from('short')]), { headers: { 'content-length': '100' } });
    await expect(readCappedBody(source, 1000)).rejects.toBeInstanceOf(BodyCutShortError);
  });
});
