/**
 * logfmt lines, the format the platform's log pipeline indexes:
 *
 *   2026-10-17T22:03:41.208Z level=info pod=rota-5c8d7f9b6-2xkqp request=req_8Jd2kQ team=payments msg="off-call request" user=ana
 *
 * Bound fields (see `with`) come first, then the fields of the call, in the
 * order given. Values with spaces, quotes or '=' are quoted.
 *
 * @typedef {Record<string, string | number | boolean | null | undefined>} Fields
 *
 * @typedef {object} Logger
 * @property {(fields: Fields) => void} debug
 * @property {(fields: Fields) => void} info
 * @property {(fields: Fields) => void} warn
 * @property {(fields: Fields) => void} error
 * @property {(fields: Fields) => Logger} with a logger that adds `fields` to every line
 */

const SEVERITY = { debug: 0, info: 1, warn: 2, error: 3 };

/**
 * @param {object} options
 * @param {import('./clock.js').Clock} options.clock timestamps
 * @param {(line: string) => void} options.write receives each finished line
 * @param {keyof typeof SEVERITY} [options.level] lowest level written
 * @returns {Logger}
 */
export function createLogger({ clock, write, level = 'info' }) {
  if (!(level in SEVERITY)) throw new RangeError(`unknown log level ${JSON.stringify(level)}`);
  const floor = SEVERITY[level];

  const build = (bound) => {
    const line = (lvl) => (fields = {}) => {
      if (SEVERITY[lvl] < floor) return;
      const parts = [new Date(clock.now()).toISOString(), `level=${lvl}`];
      for (const [key, value] of Object.entries({ ...bound, ...fields })) {
        if (value !== undefined) parts.push(`${key}=${quote(value)}`);
      }
      write(parts.join(' '));
    };
    return {
      debug: line('debug'),
      info: line('info'),
      warn: line('warn'),
      error: line('error'),
      with: (more) => build({ ...bound, ...more }),
    };
  };
  return build({});
}

/** Drops every line. The default wherever a logger is optional. */
export const silentLogger = Object.freeze({
  debug() {},
  info() {},
  warn() {},
  error() {},
  with() { return silentLogger; },
});

function quote(value) {
  const text = String(value);
  return text === '' || /[\s"=]/.test(text) ? JSON.stringify(text) : text;
}
