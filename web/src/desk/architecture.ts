// The architecture panel: the dossier's component graph drawn as SVG, with
// labelled edges, and the same graph as a list for screen readers.
import { h, panel, s } from '../lib/dom';
import type { Dossier } from '../lib/types';
import { layoutGraph } from './graph-layout';

const kindCaption: Record<string, string> = {
  queue: 'queue', service: 'service', store: 'store', config: 'config', external: 'external',
};

let uid = 0;

/** Renders the architecture graph panel. */
export function architecturePanel(d: Dossier): HTMLElement {
  const { nodes, edges } = d.architecture;
  const g = layoutGraph(nodes, edges);
  const arrow = `arch-arrow-${++uid}`;
  const labelOf = new Map(nodes.map((n) => [n.id, n.label]));
  const svg = s('svg', {
    class: 'arch-graph', viewBox: `0 0 ${g.width} ${g.height}`, role: 'img',
    'aria-label': `Architecture: ${nodes.length} components, ${edges.length} connections`,
    width: g.width, height: g.height,
  },
  s('defs', null,
    s('marker', { id: arrow, viewBox: '0 0 10 10', refX: 8, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' },
      s('path', { d: 'M0,0 L10,5 L0,10 z', class: 'arch-arrowhead' }))),
  s('g', { class: 'arch-edges' },
    g.edges.map((e) => s('path', { d: e.path, class: 'arch-edge', 'marker-end': `url(#${arrow})` }))),
  s('g', { class: 'arch-nodes' },
    g.nodes.map((n) => s('g', { class: `arch-node kind-${n.kind || 'service'}`, transform: `translate(${n.x - n.w / 2},${n.y - n.h / 2})`, 'data-node': n.id },
      s('title', null, `${n.label}${n.kind ? ` (${n.kind})` : ''}`),
      s('rect', { width: n.w, height: n.h, rx: n.kind === 'queue' ? 20 : 8, class: 'arch-box' }),
      n.kind === 'store' ? s('path', { d: `M10,9 h${n.w - 20}`, class: 'arch-store-line' }) : null,
      s('text', { x: n.w / 2, y: n.kind ? n.h / 2 + 1 : n.h / 2 + 5, class: 'arch-label', 'text-anchor': 'middle' }, n.label),
      n.kind ? s('text', { x: n.w / 2, y: n.h / 2 + 14, class: 'arch-kind', 'text-anchor': 'middle' }, kindCaption[n.kind] ?? n.kind) : null))),
  s('g', { class: 'arch-edge-labels' },
    g.edges.filter((e) => e.label).map((e) => s('g', { class: 'arch-edge-label', transform: `translate(${e.lx},${e.ly})` },
      s('rect', { x: -e.lw / 2, y: -10, width: e.lw, height: 20, rx: 10 }),
      s('text', { 'text-anchor': 'middle', y: 4 }, e.label!)))));
  const list = h('ul', { class: 'sr-only' },
    edges.map((e) => h('li', null, `${labelOf.get(e.from) ?? e.from} → ${labelOf.get(e.to) ?? e.to}${e.label ? `: ${e.label}` : ''}`)));
  return panel('Architecture', h('div', { class: 'arch-wrap' }, h('div', { class: 'arch-scroll' }, svg), list), { id: 'architecture' });
}
