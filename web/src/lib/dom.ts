// Small helpers to build DOM and SVG trees without a framework. Text is
// always set as text, never parsed as HTML.

export type Child = Node | string | number | null | undefined | false | Child[];
type Listener = (ev: any) => void;
export type Props = Record<string, string | number | boolean | null | undefined | Listener>;

function apply(el: Element, props: Props | null | undefined): void {
  if (!props) return;
  for (const [key, value] of Object.entries(props)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') {
      el.addEventListener(key.slice(2).toLowerCase(), value as EventListener);
    } else if (key === 'class') {
      el.setAttribute('class', String(value));
    } else {
      el.setAttribute(key, value === true ? '' : String(value));
    }
  }
}

function append(el: Node, children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.appendChild(typeof c === 'object' ? c : document.createTextNode(String(c)));
  }
}

/** Creates an HTML element with attributes, listeners (onclick…) and children. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props?: Props | null,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  apply(el, props);
  append(el, children);
  return el;
}

const SVG = 'http://www.w3.org/2000/svg';

/** Creates an SVG element with attributes and children. */
export function s(tag: string, props?: Props | null, ...children: Child[]): SVGElement {
  const el = document.createElementNS(SVG, tag) as SVGElement;
  apply(el, props);
  append(el, children);
  return el;
}

/** Replaces every child of el. */
export function replace(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  append(el, children);
}

/** A visually hidden label for screen readers. */
export function srOnly(text: string): HTMLElement {
  return h('span', { class: 'sr-only' }, text);
}

/** A section panel with a heading and an optional count badge. */
export function panel(title: string, body: Child, opts: { count?: number; id?: string; cls?: string; extra?: Child } = {}): HTMLElement {
  const headingID = opts.id ? `${opts.id}-title` : undefined;
  return h('section', { class: `panel ${opts.cls ?? ''}`.trim(), id: opts.id, 'aria-labelledby': headingID },
    h('header', { class: 'panel-head' },
      h('h3', { id: headingID }, title),
      opts.count !== undefined ? h('span', { class: 'count', 'aria-label': `${opts.count} items` }, String(opts.count)) : null,
      opts.extra ?? null),
    body);
}
