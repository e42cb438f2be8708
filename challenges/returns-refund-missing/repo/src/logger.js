/**
 * logfmt lines, the format the log pipeline indexes:
 *
 *   2026-11-17T14:02:07.412Z level=info worker=returns-worker-7c9d4-hx2lp command=cmd-5f1e return=RMA-20417 msg="return approved"
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
 * @property {(fields: Fields) => Logger} with a logger that adds `fields` to every line
 */

const SEVERITY = { debug: 0, info: 1, warn: 2 };

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
    return { debug: line('debug'), info: line('info'), warn: line('warn'), with: (more) => build({ ...bound, ...more }) };
  };
  return build({});
}

/** Drops every line. The default wherever a logger is optional. */
export const silentLogger = Object.freeze({
  debug() {},
  info() {},
  warn() {},
  with() { return silentLogger; },
});

function quote(value) {
  const text = String(value);
  return text === '' || /[\s"=]/.test(text) ? JSON.stringify(text) : text;
}
