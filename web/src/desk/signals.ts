// Log and metric panels, each with its title and source name, and the recent
// changes.
import { h, panel } from '../lib/dom';
import { metricValue } from '../lib/format';
import type { Change, LogPanel, MetricPanel } from '../lib/types';

/** Splits `key=value` tokens of a log line so keys and values can be styled. */
function logLine(line: string): HTMLElement {
  const parts: (HTMLElement | string)[] = [];
  const time = /^((?:\d{4}-\d{2}-\d{2}[T ])?\d{2}:\d{2}:\d{2}(?:\.\d+)?Z?)\s+/.exec(line);
  let rest = line;
  if (time) {
    // Show the time of day; the full timestamp is in the tooltip.
    const short = time[1].replace(/^\d{4}-\d{2}-\d{2}[T ]/, '').replace(/Z$/, '');
    parts.push(h('span', { class: 'log-time', title: time[1] }, short), ' ');
    rest = line.slice(time[0].length);
  }
  for (const [i, tok] of rest.split(/(\s+)/).entries()) {
    const eq = tok.indexOf('=');
    if (i % 2 === 0 && eq > 0) {
      parts.push(h('span', { class: 'log-key' }, tok.slice(0, eq + 1)), h('span', { class: 'log-val' }, tok.slice(eq + 1)));
    } else {
      parts.push(tok);
    }
  }
  return h('div', { class: 'log-line' }, parts);
}

/** The log panels under one heading with their count. */
export function logsPanel(logs: LogPanel[]): HTMLElement {
  return panel('Logs', h('div', { class: 'stack' }, logs.map((l) => h('figure', { class: 'log', 'aria-label': `${l.title} log, source ${l.source}` },
    h('figcaption', null, h('span', { class: 'log-title' }, l.title), h('code', { class: 'source' }, l.source)),
    h('pre', { class: 'log-body', tabindex: 0 }, l.lines.map(logLine))))), { count: logs.length, id: 'logs' });
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
