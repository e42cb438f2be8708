// How calls and values read in a trace: short, concrete, in the learner's terms.

import { fileURLToPath } from 'node:url';

const harnessDir = fileURLToPath(new URL('.', import.meta.url));

const SHOWN_CHARS = 60;
const MESSAGE_CHARS = 300;

/** Formats a value the way the trace shows it, cut short when long. */
export function show(value) {
  if (value === null || value === undefined) return 'null';
  const text = JSON.stringify(value) ?? String(value);
  return text.length <= SHOWN_CHARS ? text : `${text.slice(0, SHOWN_CHARS - 1)}…`;
}

/**
 * Text a worker reported, as the learner may read it: stack frames outside the
 * repository (absolute paths, file: URLs, node: internals) are dropped and the
 * harness's own directory never shows.
 */
export function learnerText(text) {
  return text.split('\n')
    .filter((line) => !/^\s*at\s.*(\/|file:|node:)/.test(line))
    .join('\n')
    .split(harnessDir).join('')
    .split(harnessDir.slice(0, -1)).join('the harness');
}

/** Cuts a learner-controlled message to a readable length. */
export function clipMessage(text) {
  return text.length <= MESSAGE_CHARS ? text : `${text.slice(0, MESSAGE_CHARS - 1)}…`;
}

/** An English ordinal: 1st, 2nd, 3rd, 4th, 11th, 21st, … */
export function ordinal(n) {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  const suffix = teen ? 'th' : ['th', 'st', 'nd', 'rd'][n % 10] ?? 'th';
  return `${n}${suffix}`;
}

/**
 * Describes the result of a store or lock-service call.
 * @param {{ target: string, name: string, args: unknown[] }} op
 * @param {unknown} value the call's result
 * @param {{ value: string } | undefined} before the store entry before the call
 * @param {string | undefined} holder the lock's holder before the call
 */
export function describeCall(op, value, before, holder) {
  const args = op.args ?? [];
  const ttl = (opts) => (opts?.ttlMs ? `, expires in ${opts.ttlMs} ms` : '');
  if (op.target === 'locks') {
    if (op.name === 'release') return value ? 'released' : `false: not held by this worker${holder ? ` (held by ${holder})` : ''}`;
    return value ? 'acquired' : `false: held by ${holder}`;
  }
  switch (op.name) {
    case 'get': return show(value);
    case 'set': return `wrote ${show(args[1])}${ttl(args[2])}`;
    case 'setIfAbsent': return value ? `true: wrote ${show(args[1])}${ttl(args[2])}` : `false: held by ${show(before?.value)}`;
    case 'compareAndSet': return value ? `true: ${show(args[1])} → ${show(args[2])}${ttl(args[3])}` : `false: holds ${show(before?.value ?? null)}`;
    case 'compareAndDelete': return value ? `true: deleted ${show(args[1])}` : `false: holds ${show(before?.value ?? null)}`;
    case 'compareAndExpire': return value ? `true: ${show(args[1])} renewed for ${args[2]} ms` : `false: holds ${show(before?.value ?? null)}`;
    case 'expire': return value ? `renewed ${show(before?.value)} for ${args[1]} ms` : 'false: no such key';
    case 'incrBy': return `${show(before?.value ?? '0')} → ${value}`;
    case 'delete': return before ? `deleted ${show(before.value)}` : 'nothing to delete';
    default: return show(value);
  }
}
