// node:crypto and the crypto global for the worker's realm. Randomness comes
// from the worker's seeded generator, so a replayed schedule draws the same
// ids; hashes and HMACs are computed by the host (bytes in, digest out).
(function cryptoModule(rt) {
  'use strict';

  rt.need('buffer');

  function randomBytes(size, callback) {
    if (!Number.isInteger(size) || size < 0) throw new RangeError(`The value of "size" is out of range. Received ${size}`);
    const bytes = rt.fillRandom(rt.Buffer.alloc(size));
    if (typeof callback === 'function') {
      rt.queueMicrotask(() => callback(null, bytes));
      return undefined;
    }
    return bytes;
  }

  function randomUUID() {
    const b = rt.fillRandom(new Uint8Array(16));
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    const h = Array.from(b, (n) => n.toString(16).padStart(2, '0')).join('');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  }

  function randomInt(min, max, callback) {
    if (typeof max !== 'number') { callback = max; max = min; min = 0; }
    if (!Number.isSafeInteger(min) || !Number.isSafeInteger(max) || max <= min) {
      throw new RangeError(`The value of "max" is out of range. It must be greater than the value of "min" (${min}). Received ${max}`);
    }
    const value = min + Math.floor(rt.draw() * (max - min));
    if (typeof callback === 'function') {
      rt.queueMicrotask(() => callback(null, value));
      return undefined;
    }
    return value;
  }

  function getRandomValues(array) {
    if (!ArrayBuffer.isView(array) || array instanceof DataView || array instanceof Float32Array || array instanceof Float64Array) {
      throw new TypeError('The data argument must be an integer-type TypedArray');
    }
    rt.fillRandom(new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
    return array;
  }

  function randomFillSync(buffer, offset = 0, size) {
    const view = new Uint8Array(buffer.buffer ?? buffer, buffer.byteOffset ?? 0, buffer.byteLength);
    rt.fillRandom(view.subarray(offset, size === undefined ? undefined : offset + size));
    return buffer;
  }

  function digestOf(algorithm, key, chunks) {
    const data = rt.Buffer.concat(chunks);
    const answer = rt.host('hash', String(algorithm), key ? rt.base64Encode(key, false) : '', rt.base64Encode(data, false));
    if (typeof answer !== 'string' || answer.startsWith('!')) {
      throw new Error(typeof answer === 'string' ? answer.slice(1) : `Digest method not supported: ${algorithm}`);
    }
    return rt.Buffer.from(answer, 'base64');
  }

  /** A Hash or Hmac: update() collects bytes, digest() asks the host once. */
  class Digest {
    #algorithm;
    #key;
    #chunks = [];
    #done = false;

    constructor(algorithm, key) {
      this.#algorithm = algorithm;
      this.#key = key;
      digestOf(algorithm, key, []);
    }

    update(data, encoding) {
      if (this.#done) throw new Error('Digest already called');
      this.#chunks.push(rt.Buffer.from(rt.bytesOf(data, encoding)));
      return this;
    }

    digest(encoding) {
      if (this.#done) throw new Error('Digest already called');
      this.#done = true;
      const bytes = digestOf(this.#algorithm, this.#key, this.#chunks);
      return encoding === undefined || encoding === 'buffer' ? bytes : bytes.toString(encoding);
    }

    copy() {
      const copy = new Digest(this.#algorithm, this.#key);
      for (const chunk of this.#chunks) copy.update(chunk);
      return copy;
    }
  }

  function timingSafeEqual(a, b) {
    const x = rt.bytesOf(a);
    const y = rt.bytesOf(b);
    if (x.length !== y.length) throw new RangeError('Input buffers must have the same byte length');
    let diff = 0;
    for (let i = 0; i < x.length; i++) diff |= x[i] ^ y[i];
    return diff === 0;
  }

  const webcrypto = { getRandomValues, randomUUID, subtle: undefined };
  rt.setGlobal('crypto', webcrypto);

  rt.define('crypto', () => ({
    randomBytes,
    randomUUID,
    randomInt,
    getRandomValues,
    randomFillSync,
    randomFill: (buffer, ...rest) => {
      const callback = rest.pop();
      randomFillSync(buffer, ...rest);
      rt.queueMicrotask(() => callback(null, buffer));
    },
    createHash: (algorithm) => new Digest(algorithm, null),
    createHmac: (algorithm, key) => new Digest(algorithm, rt.bytesOf(key)),
    hash: (algorithm, data, encoding = 'hex') => new Digest(algorithm, null).update(data).digest(encoding),
    timingSafeEqual,
    getHashes: () => ['md5', 'sha1', 'sha224', 'sha256', 'sha384', 'sha512'],
    webcrypto,
    constants: {},
  }));
})
