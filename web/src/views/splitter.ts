// A pane splitter (the window-splitter pattern): a focusable separator
// between two panes that resizes one of them by dragging or with the arrow
// keys, Home and End, and collapses or restores it with Enter. The size is
// a CSS variable on the element that lays the panes out, remembered in this
// browser; every change bubbles up as a "paneresize" event.
import { h } from '../lib/dom';
import { loadPref, savePref } from '../lib/prefs';

export interface SplitterOptions {
  /** The accessible name, e.g. "Resize the evidence desk". */
  label: string;
  /** "columns" separates panes side by side; "rows" separates stacked panes. */
  between: 'columns' | 'rows';
  /** The element whose CSS variable sizes the pane. */
  host: HTMLElement;
  /** The CSS variable, e.g. "--desk-w". */
  cssVar: string;
  /** The id of the resized pane. */
  controls: string;
  /** Preference key of the size. */
  pref: string;
  initial: number;
  min: number;
  /** The largest size now (it depends on the window). */
  max(): number;
  /** The pane grows when the pointer moves towards the end (right or down), or the other way. */
  grows: 'forward' | 'backward';
}

/** A splitter and what the page can do with it. */
export interface Splitter {
  el: HTMLElement;
  /** Sets the size (clamped) and remembers it. */
  set(px: number): void;
  /** The size now. */
  size(): number;
  /** Collapses the pane to nothing, or restores its last size. */
  toggle(): void;
  collapsed(): boolean;
}

const STEP = 16;
const BIG_STEP = 64;

/** Creates a splitter; the pane starts at its remembered size. */
export function splitter(o: SplitterOptions): Splitter {
  const saved = loadPref<{ size: number; collapsed: boolean }>(o.pref);
  let size = saved?.size ?? o.initial;
  let collapsed = saved?.collapsed ?? false;
  const el = h('div', {
    class: `splitter ${o.between}`, role: 'separator', tabindex: 0, 'aria-label': o.label, 'aria-controls': o.controls,
    'aria-orientation': o.between === 'columns' ? 'vertical' : 'horizontal', title: `${o.label}: drag, or use the arrow keys; Enter hides or shows it`,
  });
  const clamp = (px: number) => Math.round(Math.max(o.min, Math.min(o.max(), px)));
  const apply = () => {
    const shown = collapsed ? 0 : clamp(size);
    o.host.style.setProperty(o.cssVar, `${shown}px`);
    o.host.classList.toggle(`collapsed${o.cssVar}`, collapsed);
    el.setAttribute('aria-valuemin', '0');
    el.setAttribute('aria-valuemax', String(Math.round(o.max())));
    el.setAttribute('aria-valuenow', String(shown));
    savePref(o.pref, { size, collapsed });
    el.dispatchEvent(new CustomEvent('paneresize', { bubbles: true, detail: shown }));
  };
  const api: Splitter = {
    el,
    set(px) {
      size = clamp(px);
      collapsed = false;
      apply();
    },
    size: () => (collapsed ? 0 : clamp(size)),
    toggle() {
      collapsed = !collapsed;
      apply();
    },
    collapsed: () => collapsed,
  };
  const sign = o.grows === 'forward' ? 1 : -1;
  el.addEventListener('keydown', (e: KeyboardEvent) => {
    const step = e.shiftKey ? BIG_STEP : STEP;
    const back = o.between === 'columns' ? 'ArrowLeft' : 'ArrowUp';
    const fwd = o.between === 'columns' ? 'ArrowRight' : 'ArrowDown';
    if (e.key === back || e.key === fwd) api.set(api.size() + sign * (e.key === fwd ? step : -step));
    else if (e.key === 'Home') api.set(sign > 0 ? o.min : o.max());
    else if (e.key === 'End') api.set(sign > 0 ? o.max() : o.min);
    else if (e.key === 'Enter') api.toggle();
    else return;
    e.preventDefault();
  });
  el.addEventListener('pointerdown', (e: PointerEvent) => {
    if (e.button !== 0) return;
    e.preventDefault();
    el.setPointerCapture(e.pointerId);
    const start = o.between === 'columns' ? e.clientX : e.clientY;
    const from = api.size();
    const move = (m: PointerEvent) => api.set(from + sign * ((o.between === 'columns' ? m.clientX : m.clientY) - start));
    const up = () => {
      el.removeEventListener('pointermove', move);
      el.removeEventListener('pointerup', up);
      el.classList.remove('dragging');
    };
    el.classList.add('dragging');
    el.addEventListener('pointermove', move);
    el.addEventListener('pointerup', up);
  });
  el.addEventListener('dblclick', () => api.toggle());
  apply();
  return api;
}
