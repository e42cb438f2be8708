// The wire format between the supervisor and a worker process: length-prefixed
// JSON frames over a socket. A reader refuses a frame larger than its limit
// before buffering it, so a worker cannot make the supervisor hold an endless
// message in memory.

/** Bytes of the big-endian length that precedes each frame. */
const HEADER = 4;

/** Encodes one message as a frame. */
export function encodeFrame(message) {
  const body = Buffer.from(JSON.stringify(message), 'utf8');
  const frame = Buffer.allocUnsafe(HEADER + body.length);
  frame.writeUInt32BE(body.length, 0);
  body.copy(frame, HEADER);
  return frame;
}

/** Raised when the byte stream is not a sequence of well-formed frames. */
export class FrameError extends Error {}

/** Splits a byte stream into decoded messages. */
export class FrameReader {
  #limit;
  #chunks = [];
  #buffered = 0;

  /** @param {number} limit the largest frame body accepted, in bytes */
  constructor(limit) {
    this.#limit = limit;
  }

  /**
   * Adds bytes and returns every message they complete.
   * @param {Buffer} chunk
   * @returns {unknown[]}
   * @throws {FrameError} when a frame is too large or is not JSON
   */
  push(chunk) {
    this.#chunks.push(chunk);
    this.#buffered += chunk.length;
    const messages = [];
    for (;;) {
      if (this.#buffered < HEADER) return messages;
      const head = this.#peek(HEADER);
      const size = head.readUInt32BE(0);
      if (size > this.#limit) throw new FrameError(`a message of ${size} bytes (the limit is ${this.#limit})`);
      if (this.#buffered < HEADER + size) return messages;
      const frame = this.#take(HEADER + size);
      try {
        messages.push(JSON.parse(frame.toString('utf8', HEADER)));
      } catch {
        throw new FrameError('a message that is not JSON');
      }
    }
  }

  #peek(n) {
    if (this.#chunks[0].length < n) this.#chunks = [Buffer.concat(this.#chunks)];
    return this.#chunks[0].subarray(0, n);
  }

  #take(n) {
    const all = this.#chunks.length === 1 ? this.#chunks[0] : Buffer.concat(this.#chunks);
    const frame = all.subarray(0, n);
    const rest = all.subarray(n);
    this.#chunks = rest.length > 0 ? [rest] : [];
    this.#buffered = rest.length;
    return frame;
  }
}
