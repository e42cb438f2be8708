/**
 * A small structured logger: one `key=value` line per event, stamped with the
 * clock's time, as the log shipper expects.
 */

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40 };

/**
 * @typedef {{ debug(fields: object): void, info(fields: object): void, warn(fields: object): void, error(fields: object): void }} Logger
 */

/**
 * @param {object} options
 * @param {{ now(): number }} options.clock
 * @param {(line: string) => void} [options.write] where lines go; nowhere when omitted
 * @param {keyof LEVELS} [options.level] the lowest level written
 * @returns {Logger}
 */
export function createLogger({ clock, write = () => {}, level = 'info' }) {
  const threshold = LEVELS[level] ?? LEVELS.info;
  const at = (name) => (fields) => {
    if (LEVELS[name] < threshold) return;
    const stamp = new Date(clock.now()).toISOString().slice(11, 23);
    write(`${stamp} level=${name} ${Object.entries(fields).map(([k, v]) => `${k}=${format(v)}`).join(' ')}`);
  };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

function format(value) {
  const text = String(value);
  return /[\s"=]/.test(text) ? JSON.stringify(text) : text;
}
