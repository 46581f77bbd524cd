// The serialisation trap: the platform signs Python's json.dumps of the body, not its bytes.
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { verifyWebhookSignature } from '../../src/index.js';
import { pythonJsonDumps } from '../../src/api/python-json.js';
import { pythonDumpsAll, pythonMissing, pythonSignature } from './python.js';

const hmac = (text: string, secret: string) => createHmac('sha256', secret).update(text).digest('hex');

/** Bodies where Node's and Python's serialisations part ways. */
const TRICKY = [
  '{"b":1,"a":[1.0,2.50,-0,-0.0,1e5,1E-7,12345678901234567890,0.1,1e16,123456789012345678.0,1e400]}',
  '{"name":"Zoë Ünal","emoji":"😀","ctl":"tab\\there\\u0001","quote":"\\"q\\" / \\\\","del":"\\u007f"}',
  '{"dup":1,"x":true,"dup":2,"y":null,"z":{},"w":[]}',
  '  [ {"nested" : {"deep": [ "\\ud83d\\ude00" , false ] } } ]  ',
  '"just a string é"',
  '{"lone":"\\ud800","big":-98765432109876543210,"small":5e-324,"max":1.7976931348623157e308}',
];

describe("the platform's re-serialisation", () => {
  it('matches Python on hand-written bytes without needing Python', () => {
    expect(pythonJsonDumps('{"b":1.0,"a":"é😀","c":[1e5,-0,1e16]}')).toBe(
      '{"b": 1.0, "a": "\\u00e9\\ud83d\\ude00", "c": [100000.0, 0, 1e+16]}',
    );
    expect(pythonJsonDumps('{"k":1,"j":2,"k":3}')).toBe('{"k": 3, "j": 2}');
    expect(() => pythonJsonDumps('{"a":1,}')).toThrow(/at character/);
  });

  it.skipIf(pythonMissing)(`agrees with python3 byte for byte on tricky bodies${pythonMissing ? ` (skipped: ${pythonMissing})` : ''}`, () => {
    expect(TRICKY.map(pythonJsonDumps)).toEqual(pythonDumpsAll(TRICKY));
  });

  it.skipIf(pythonMissing)(`agrees with python3 on 300 random JSON documents${pythonMissing ? ` (skipped: ${pythonMissing})` : ''}`, () => {
    const texts = fc.sample(
      fc.oneof(
        fc.json({ maxDepth: 3 }),
        fc.double({ noNaN: true, noDefaultInfinity: true }).map((x) => JSON.stringify({ x, [`k${x}`]: [x, String(x)] })),
        fc.string({ unit: 'binary' }).map((s) => JSON.stringify({ s })),
      ),
      { numRuns: 300, seed: 12 },
    );
    expect(texts.map(pythonJsonDumps)).toEqual(pythonDumpsAll(texts));
  });
});

describe('verifyWebhookSignature', () => {
  const secret = 'whsec_test_secret';
  const body = '{"event_type":"order.created","data":{"id":7,"total":"12.50","name":"Zoë","ratio":1.0}}';

  it("accepts the platform's signature and says the re-serialisation matched", () => {
    const signature = hmac('{"event_type": "order.created", "data": {"id": 7, "total": "12.50", "name": "Zo\\u00eb", "ratio": 1.0}}', secret);
    expect(verifyWebhookSignature(body, signature, secret)).toEqual({ valid: true, matched: 'python-json' });
    expect(verifyWebhookSignature(Buffer.from(body), signature.toUpperCase(), secret)).toEqual({ valid: true, matched: 'python-json' });
  });

  it.skipIf(pythonMissing)(`accepts a signature computed by Python the platform's way${pythonMissing ? ` (skipped: ${pythonMissing})` : ''}`, () => {
    for (const text of TRICKY) {
      expect(verifyWebhookSignature(text, pythonSignature(text, secret), secret)).toEqual({ valid: true, matched: 'python-json' });
    }
  });

  it('accepts a signature over the raw bytes and says so', () => {
    expect(verifyWebhookSignature(body, hmac(body, secret), secret)).toEqual({ valid: true, matched: 'raw' });
    expect(verifyWebhookSignature('not json', hmac('not json', secret), secret)).toEqual({ valid: true, matched: 'raw' });
  });

  it('rejects a wrong secret, a changed body, a malformed or missing signature', () => {
    const signature = hmac(pythonJsonDumps(body), secret);
    expect(verifyWebhookSignature(body, signature, 'other')).toEqual({ valid: false, matched: null });
    expect(verifyWebhookSignature(body.replace('12.50', '12.51'), signature, secret)).toEqual({ valid: false, matched: null });
    expect(verifyWebhookSignature(body, signature.slice(1), secret)).toEqual({ valid: false, matched: null });
    expect(verifyWebhookSignature(body, 'zz'.repeat(32), secret)).toEqual({ valid: false, matched: null });
    expect(verifyWebhookSignature(body, undefined, secret)).toEqual({ valid: false, matched: null });
    expect(verifyWebhookSignature('not json', '0'.repeat(64), secret)).toEqual({ valid: false, matched: null });
  });
});
