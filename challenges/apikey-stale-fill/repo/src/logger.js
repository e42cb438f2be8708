/**
 * key=value logs, one line per event, as the evidence panels show them:
 *
 *   2026-11-30T09:41:07.180Z level=info worker=blue request=rq-5c1e key=key_7Hq2 cache=miss
 *
 * @typedef {Record<string, string | number | boolean | null | undefined>} Fields
 *
 * @typedef {object} Logger
 * @property {(fields: Fields) => void} debug
 * @property {(fields: Fields) => void} info
 * @property {(fields: Fields) => void} warn
 * @property {(fields: Fields) => Logger} child a logger that adds `fields` to every line
 */

const LEVELS = Object.freeze({ debug: 10, info: 20, warn: 30, error: 40 });

/**
 * Creates a logger that hands finished lines to `write`.
 * @param {{ clock: import('./clock.js').Clock, write: (line: string) => void, level?: keyof typeof LEVELS }} options
 * @returns {Logger}
 */
export function createLogger({ clock, write, level = 'info' }) {
  const threshold = LEVELS[level];
  if (threshold === undefined) throw new RangeError(`unknown log level ${JSON.stringify(level)}`);
  const make = (bound) => {
    const emit = (name) => (fields) => {
      if (LEVELS[name] < threshold) return;
      const pairs = Object.entries({ ...bound, ...fields }).filter(([, v]) => v !== undefined);
      write([new Date(clock.now()).toISOString(), `level=${name}`, ...pairs.map(([k, v]) => `${k}=${format(v)}`)].join(' '));
    };
    return { debug: emit('debug'), info: emit('info'), warn: emit('warn'), child: (more) => make({ ...bound, ...more }) };
  };
  return make({});
}

/** A logger that drops everything: the default wherever a logger is optional. */
export const silentLogger = Object.freeze({ debug() {}, info() {}, warn() {}, child: () => silentLogger });

function format(value) {
  const text = String(value);
  return /[\s"=]/.test(text) ? JSON.stringify(text) : text;
}
