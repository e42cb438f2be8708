// Log and metric panels, each with its title and source name, and the recent
// changes. A log opens on the key lines its dossier marks.
import { h, panel, replace, srOnly } from '../lib/dom';
import { metricValue } from '../lib/format';
import type { Change, LogPanel, MetricPanel } from '../lib/types';

/** A `key=value` token (the value may be quoted, with spaces), a run of spaces, or any other word. */
const logToken = /([^\s=]+=)("(?:[^"\\]|\\.)*"|\S*)|(\s+)|(\S+)/g;

/** Splits `key=value` tokens of a log line so keys and values can be styled. */
function logLine(line: string, key: boolean): HTMLElement {
  const parts: (HTMLElement | string)[] = [];
  const time = /^((?:\d{4}-\d{2}-\d{2}[T ])?\d{2}:\d{2}:\d{2}(?:\.\d+)?Z?)\s+/.exec(line);
  let rest = line;
  if (time) {
    // Show the time of day; the full timestamp is in the tooltip.
    const short = time[1].replace(/^\d{4}-\d{2}-\d{2}[T ]/, '').replace(/Z$/, '');
    parts.push(h('span', { class: 'log-time', title: time[1] }, short), ' ');
    rest = line.slice(time[0].length);
  }
  for (const m of rest.matchAll(logToken)) {
    if (m[1]) parts.push(h('span', { class: 'log-key' }, m[1]), h('span', { class: 'log-val' }, m[2]));
    else parts.push(m[0]);
  }
  return h('div', { class: `log-line${key ? ' key' : ''}` }, key ? srOnly('Key line: ') : null, parts);
}

/**
 * One log: on its key lines when the dossier marks some, with a button that
 * shows the full log (key lines still marked); otherwise every line.
 */
function logFigure(l: LogPanel): HTMLElement {
  const isKey = (line: string) => !!l.key && line.includes(l.key);
  const keyLines = l.lines.filter(isKey);
  const body = h('pre', { class: 'log-body', tabindex: 0, 'aria-label': `${l.title} log lines` });
  const focused = keyLines.length > 0 && keyLines.length < l.lines.length;
  const show = (full: boolean) => replace(body, (full ? l.lines : keyLines).map((line) => logLine(line, isKey(line))));
  let toggle: HTMLButtonElement | null = null;
  if (focused) {
    toggle = h('button', {
      type: 'button', class: 'btn small ghost log-toggle', 'aria-expanded': 'false',
      onclick: () => {
        const full = toggle!.getAttribute('aria-expanded') !== 'true';
        toggle!.setAttribute('aria-expanded', String(full));
        toggle!.textContent = full ? `Key lines only (${keyLines.length})` : `Show full log (${l.lines.length} lines)`;
        show(full);
      },
    }, `Show full log (${l.lines.length} lines)`);
  }
  show(!focused);
  return h('figure', { class: 'log', 'aria-label': `${l.title} log, source ${l.source}` },
    h('figcaption', null, h('span', { class: 'log-title' }, l.title),
      focused ? h('span', { class: 'log-keyed' }, `${keyLines.length} key lines: ${l.key}`) : null,
      h('code', { class: 'source' }, l.source)),
    body,
    toggle ? h('div', { class: 'log-foot' }, toggle) : null);
}

/** The log panels under one heading with their count. */
export function logsPanel(logs: LogPanel[]): HTMLElement {
  return panel('Logs', h('div', { class: 'stack' }, logs.map(logFigure)), { count: logs.length, id: 'logs' });
}

/** The metric panels under one heading with their count. */
export function metricsPanel(metrics: MetricPanel[]): HTMLElement {
  return panel('Metrics', h('div', { class: 'stack' }, metrics.map((m) => h('figure', { class: 'metrics', 'aria-label': `${m.title} metrics, source ${m.source}` },
    h('figcaption', null, h('span', { class: 'log-title' }, m.title), h('code', { class: 'source' }, m.source)),
    h('dl', { class: 'metric-grid' }, m.values.map((v) => h('div', { class: 'metric' },
      h('dt', null, v.name), h('dd', null, metricValue(v.value, v.unit)))))))), { count: metrics.length, id: 'metrics' });
}

/** Recent changes, newest last as authored, with dates and touched files. */
export function changesPanel(changes: Change[], onOpen: (path: string) => void): HTMLElement {
  return panel('Recent changes', h('ol', { class: 'changes' }, changes.map((c) => h('li', null,
    c.when ? h('time', { datetime: c.when }, c.when) : null,
    h('span', { class: 'change-summary' }, c.summary),
    c.files?.length ? h('span', { class: 'change-files' }, c.files.map((f) =>
      h('button', { class: 'file-link', type: 'button', title: `Open ${f}`, onclick: () => onOpen(f) }, f))) : null))), { id: 'changes' });
}
