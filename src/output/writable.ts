// stdout as a Writable, for a body passed through as it arrives (a download to -). Its own module,
// loaded when used: node:stream is some twenty modules no other command needs at start.
import { Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import type { OutputStream } from '../io.js';

/** Bytes decoded as UTF-8 (so the run's secrets are still hidden), waiting when the pipe is full. */
export function writableOver(stdout: OutputStream): Writable {
  const decoder = new StringDecoder('utf8');
  const drains = stdout as OutputStream & { once?: (event: 'drain', listener: () => void) => void };
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (stdout.write(decoder.write(chunk)) || !drains.once) done();
      else drains.once('drain', () => done());
    },
    final(done) {
      const rest = decoder.end();
      if (rest) stdout.write(rest);
      done();
    },
  });
}
