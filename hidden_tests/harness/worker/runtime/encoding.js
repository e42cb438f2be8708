// Text encodings for the worker's realm: UTF-8, base64, base64url, hex and
// latin1 conversions shared by Buffer, TextEncoder and TextDecoder, plus the
// atob and btoa globals.
(function encodingModule(rt) {
  'use strict';

  function utf8Encode(text) {
    const out = [];
    for (let i = 0; i < text.length; i++) {
      let code = text.charCodeAt(i);
      if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
        const next = text.charCodeAt(i + 1);
        if (next >= 0xdc00 && next <= 0xdfff) {
          code = 0x10000 + ((code - 0xd800) << 10) + (next - 0xdc00);
          i += 1;
        } else {
          code = 0xfffd;
        }
      } else if (code >= 0xd800 && code <= 0xdfff) {
        code = 0xfffd;
      }
      if (code < 0x80) out.push(code);
      else if (code < 0x800) out.push(0xc0 | (code >> 6), 0x80 | (code & 0x3f));
      else if (code < 0x10000) out.push(0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f));
      else out.push(0xf0 | (code >> 18), 0x80 | ((code >> 12) & 0x3f), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f));
    }
    return Uint8Array.from(out);
  }

  function utf8Decode(bytes) {
    let out = '';
    for (let i = 0; i < bytes.length;) {
      const b = bytes[i];
      let code = 0xfffd;
      let size = 1;
      if (b < 0x80) { code = b; }
      else if (b >= 0xc2 && b < 0xe0 && (bytes[i + 1] & 0xc0) === 0x80) { code = ((b & 0x1f) << 6) | (bytes[i + 1] & 0x3f); size = 2; }
      else if (b >= 0xe0 && b < 0xf0 && (bytes[i + 1] & 0xc0) === 0x80 && (bytes[i + 2] & 0xc0) === 0x80) {
        const c = ((b & 0x0f) << 12) | ((bytes[i + 1] & 0x3f) << 6) | (bytes[i + 2] & 0x3f);
        if (c >= 0x800 && (c < 0xd800 || c > 0xdfff)) { code = c; size = 3; }
      } else if (b >= 0xf0 && b < 0xf5 && (bytes[i + 1] & 0xc0) === 0x80 && (bytes[i + 2] & 0xc0) === 0x80 && (bytes[i + 3] & 0xc0) === 0x80) {
        const c = ((b & 0x07) << 18) | ((bytes[i + 1] & 0x3f) << 12) | ((bytes[i + 2] & 0x3f) << 6) | (bytes[i + 3] & 0x3f);
        if (c >= 0x10000 && c <= 0x10ffff) { code = c; size = 4; }
      }
      out += String.fromCodePoint(code);
      i += size;
    }
    return out;
  }

  const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const B64_VALUES = new Map([...B64].map((c, i) => [c, i]));
  B64_VALUES.set('-', 62);
  B64_VALUES.set('_', 63);

  function base64Encode(bytes, url) {
    let out = '';
    for (let i = 0; i < bytes.length; i += 3) {
      const n = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
      out += B64[(n >> 18) & 63] + B64[(n >> 12) & 63];
      out += i + 1 < bytes.length ? B64[(n >> 6) & 63] : '=';
      out += i + 2 < bytes.length ? B64[n & 63] : '=';
    }
    return url ? out.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '') : out;
  }

  /** Decodes base64 or base64url leniently, as Buffer.from does: stops at the first padding. */
  function base64Decode(text) {
    const out = [];
    let bits = 0;
    let value = 0;
    for (const c of String(text)) {
      if (c === '=') break;
      const v = B64_VALUES.get(c);
      if (v === undefined) continue;
      value = (value << 6) | v;
      bits += 6;
      if (bits >= 8) {
        bits -= 8;
        out.push((value >> bits) & 0xff);
      }
    }
    return Uint8Array.from(out);
  }

  function hexEncode(bytes) {
    let out = '';
    for (let i = 0; i < bytes.length; i++) out += bytes[i].toString(16).padStart(2, '0');
    return out;
  }

  function hexDecode(text) {
    const out = [];
    for (let i = 0; i + 1 < text.length; i += 2) {
      const n = Number.parseInt(text.slice(i, i + 2), 16);
      if (Number.isNaN(n)) break;
      out.push(n);
    }
    return Uint8Array.from(out);
  }

  function latin1Encode(text) {
    const out = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i) & 0xff;
    return out;
  }

  function latin1Decode(bytes) {
    let out = '';
    for (let i = 0; i < bytes.length; i++) out += String.fromCharCode(bytes[i]);
    return out;
  }

  const ENCODINGS = new Map([
    ['utf8', [utf8Encode, utf8Decode]],
    ['utf-8', [utf8Encode, utf8Decode]],
    ['hex', [hexDecode, hexEncode]],
    ['base64', [base64Decode, (b) => base64Encode(b, false)]],
    ['base64url', [base64Decode, (b) => base64Encode(b, true)]],
    ['latin1', [latin1Encode, latin1Decode]],
    ['binary', [latin1Encode, latin1Decode]],
    ['ascii', [latin1Encode, (b) => latin1Decode(b.map((n) => n & 0x7f))]],
  ]);

  /** The [encode, decode] pair of a Buffer encoding name, or undefined. */
  rt.encoding = function encoding(name) {
    return ENCODINGS.get(String(name ?? 'utf8').toLowerCase());
  };
  rt.utf8Encode = utf8Encode;
  rt.utf8Decode = utf8Decode;
  rt.base64Encode = base64Encode;
  rt.base64Decode = base64Decode;

  class TextEncoder {
    get encoding() { return 'utf-8'; }
    encode(text = '') { return utf8Encode(String(text)); }
    encodeInto(text, target) {
      const bytes = utf8Encode(String(text));
      const written = Math.min(bytes.length, target.length);
      target.set(bytes.subarray(0, written));
      return { read: String(text).length, written };
    }
  }

  class TextDecoder {
    #label;
    constructor(label = 'utf-8') {
      this.#label = String(label).toLowerCase();
      if (this.#label !== 'utf-8' && this.#label !== 'utf8') throw new RangeError(`The "${label}" encoding is not supported`);
    }
    get encoding() { return 'utf-8'; }
    decode(input) {
      if (input === undefined) return '';
      const bytes = ArrayBuffer.isView(input) ? new Uint8Array(input.buffer, input.byteOffset, input.byteLength) : new Uint8Array(input);
      return utf8Decode(bytes);
    }
  }

  rt.TextEncoder = TextEncoder;
  rt.TextDecoder = TextDecoder;
  rt.btoa = function btoa(text) {
    const s = String(text);
    if (/[^\u0000-\u00ff]/.test(s)) throw new Error('Invalid character');
    return base64Encode(latin1Encode(s), false);
  };
  rt.atob = function atob(text) {
    return latin1Decode(base64Decode(String(text).replace(/\s/g, '')));
  };
  for (const name of ['TextEncoder', 'TextDecoder', 'btoa', 'atob']) rt.setGlobal(name, rt[name]);
})
