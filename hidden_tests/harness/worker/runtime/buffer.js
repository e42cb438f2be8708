// Buffer for the worker's realm: a Uint8Array with Node.js's encodings and the
// methods services use (from, alloc, concat, compare, toString, equals,
// slice, readUInt*/writeUInt* of the common widths, toJSON).
(function bufferModule(rt) {
  'use strict';

  rt.need('encoding');

  function encodingOf(name) {
    const pair = rt.encoding(name);
    if (!pair) throw new TypeError(`Unknown encoding: ${name}`);
    return pair;
  }

  class Buffer extends Uint8Array {
    static from(value, encodingOrOffset, length) {
      if (typeof value === 'string') {
        const bytes = encodingOf(encodingOrOffset)[0](value);
        return Buffer.#wrap(bytes);
      }
      if (value instanceof ArrayBuffer || (typeof SharedArrayBuffer !== 'undefined' && value instanceof SharedArrayBuffer)) {
        const offset = encodingOrOffset ?? 0;
        return new Buffer(value, offset, length ?? value.byteLength - offset);
      }
      if (ArrayBuffer.isView(value)) {
        const copy = new Buffer(value.byteLength);
        copy.set(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
        return copy;
      }
      if (value && typeof value === 'object' && value.type === 'Buffer' && Array.isArray(value.data)) return Buffer.from(value.data);
      if (Array.isArray(value) || (value && typeof value.length === 'number')) {
        const copy = new Buffer(value.length);
        for (let i = 0; i < value.length; i++) copy[i] = Number(value[i]) & 0xff;
        return copy;
      }
      throw new TypeError('The first argument must be of type string or an instance of Buffer, ArrayBuffer, or Array or an Array-like Object.');
    }

    static #wrap(bytes) {
      const buffer = new Buffer(bytes.length);
      buffer.set(bytes);
      return buffer;
    }

    static alloc(size, fill, encoding) {
      const buffer = new Buffer(Buffer.#size(size));
      if (fill !== undefined && fill !== 0) buffer.fill(fill, 0, buffer.length, encoding);
      return buffer;
    }

    static allocUnsafe(size) { return new Buffer(Buffer.#size(size)); }
    static allocUnsafeSlow(size) { return new Buffer(Buffer.#size(size)); }

    static #size(size) {
      if (typeof size !== 'number' || !(size >= 0) || !Number.isFinite(size)) throw new RangeError(`The argument 'size' is invalid. Received ${size}`);
      return Math.floor(size);
    }

    static isBuffer(value) { return value instanceof Buffer; }
    static isEncoding(name) { return typeof name === 'string' && rt.encoding(name) !== undefined; }

    static byteLength(value, encoding) {
      if (typeof value === 'string') return encodingOf(encoding)[0](value).length;
      return value.byteLength;
    }

    static concat(list, totalLength) {
      const total = totalLength ?? list.reduce((sum, b) => sum + b.length, 0);
      const out = Buffer.alloc(total);
      let offset = 0;
      for (const b of list) {
        if (offset >= total) break;
        const part = b.subarray(0, Math.min(b.length, total - offset));
        out.set(part, offset);
        offset += part.length;
      }
      return out;
    }

    static compare(a, b) {
      const n = Math.min(a.length, b.length);
      for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
      return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
    }

    toString(encoding, start = 0, end = this.length) {
      return encodingOf(encoding)[1](this.subarray(start, end));
    }

    toJSON() { return { type: 'Buffer', data: Array.from(this) }; }
    equals(other) { return Buffer.compare(this, other) === 0; }
    compare(other) { return Buffer.compare(this, other); }

    write(text, offset = 0, length, encoding) {
      if (typeof offset === 'string') { encoding = offset; offset = 0; }
      if (typeof length === 'string') { encoding = length; length = undefined; }
      const bytes = encodingOf(encoding)[0](String(text));
      const n = Math.min(bytes.length, length ?? Infinity, this.length - offset);
      this.set(bytes.subarray(0, n), offset);
      return n;
    }

    fill(value, offset = 0, end = this.length, encoding) {
      if (typeof offset === 'string') { encoding = offset; offset = 0; end = this.length; }
      if (typeof value === 'string') {
        const bytes = encodingOf(encoding)[0](value);
        if (bytes.length === 0) return super.fill(0, offset, end);
        for (let i = offset, j = 0; i < end; i++, j = (j + 1) % bytes.length) this[i] = bytes[j];
        return this;
      }
      return super.fill(typeof value === 'number' ? value & 0xff : 0, offset, end);
    }

    slice(start, end) { return this.subarray(start, end); }

    includes(value, offset, encoding) { return this.indexOf(value, offset, encoding) !== -1; }

    indexOf(value, offset = 0, encoding) {
      if (typeof value === 'number') return super.indexOf(value & 0xff, offset);
      const needle = typeof value === 'string' ? encodingOf(encoding)[0](value) : value;
      outer: for (let i = Math.max(0, offset); i + needle.length <= this.length; i++) {
        for (let j = 0; j < needle.length; j++) if (this[i + j] !== needle[j]) continue outer;
        return i;
      }
      return -1;
    }

    readUInt8(offset = 0) { return this.#view().getUint8(offset); }
    readUInt16BE(offset = 0) { return this.#view().getUint16(offset, false); }
    readUInt16LE(offset = 0) { return this.#view().getUint16(offset, true); }
    readUInt32BE(offset = 0) { return this.#view().getUint32(offset, false); }
    readUInt32LE(offset = 0) { return this.#view().getUint32(offset, true); }
    readInt32BE(offset = 0) { return this.#view().getInt32(offset, false); }
    readInt32LE(offset = 0) { return this.#view().getInt32(offset, true); }
    readBigUInt64BE(offset = 0) { return this.#view().getBigUint64(offset, false); }
    readDoubleBE(offset = 0) { return this.#view().getFloat64(offset, false); }
    writeUInt8(value, offset = 0) { this.#view().setUint8(offset, value); return offset + 1; }
    writeUInt16BE(value, offset = 0) { this.#view().setUint16(offset, value, false); return offset + 2; }
    writeUInt32BE(value, offset = 0) { this.#view().setUint32(offset, value, false); return offset + 4; }
    writeUInt32LE(value, offset = 0) { this.#view().setUint32(offset, value, true); return offset + 4; }
    writeInt32BE(value, offset = 0) { this.#view().setInt32(offset, value, false); return offset + 4; }

    #view() { return new DataView(this.buffer, this.byteOffset, this.byteLength); }
  }
  Buffer.poolSize = 8192;

  rt.Buffer = Buffer;
  rt.isBuffer = (value) => value instanceof Buffer;
  /** Bytes of a string, Buffer or typed array, as Node.js's crypto accepts them. */
  rt.bytesOf = function bytesOf(value, encoding) {
    if (typeof value === 'string') return encodingOf(encoding)[0](value);
    if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
    if (value instanceof ArrayBuffer) return new Uint8Array(value);
    throw new TypeError('The "data" argument must be of type string or an instance of Buffer, TypedArray, or DataView.');
  };
  rt.setGlobal('Buffer', Buffer);

  rt.define('buffer', () => ({
    Buffer,
    constants: { MAX_LENGTH: 2 ** 32, MAX_STRING_LENGTH: 2 ** 29 - 24 },
    kMaxLength: 2 ** 32,
    atob: rt.atob,
    btoa: rt.btoa,
    isUtf8: (input) => {
      try { return !rt.utf8Decode(rt.bytesOf(input)).includes('\ufffd'); } catch { return false; }
    },
  }));
})
