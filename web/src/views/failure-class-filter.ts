// The catalog's browse-by-class bar: "All" and then each failure class the
// served dossiers cover, with how many there are, as toggle buttons.
import { h, replace } from '../lib/dom';
import type { Card, FailureClass } from '../lib/types';

/** A failure class with how many dossiers of it are served. */
interface ClassCount extends FailureClass {
  count: number;
}

/** The classes the cards cover, in the order of each class's first card. */
function classesOf(cards: Card[]): ClassCount[] {
  const counts = new Map<string, ClassCount>();
  for (const c of cards) {
    const seen = counts.get(c.failure_class.id);
    if (seen) seen.count += 1;
    else counts.set(c.failure_class.id, { ...c.failure_class, count: 1 });
  }
  return [...counts.values()];
}

/** A bar that starts empty; fill() gives it its buttons once the catalog is known. */
export interface FailureClassFilter {
  el: HTMLElement;
  /** Shows one button per class the cards cover, and the one selected pressed. */
  fill(cards: Card[], selected: string): void;
  /** The label of a class the bar shows, or '' when it shows none by that id. */
  labelOf(id: string): string;
}

/** Builds the bar; onSelect gets a class id, or '' for every class. */
export function failureClassFilter(onSelect: (id: string) => void): FailureClassFilter {
  const list = h('ul', { class: 'class-filter' });
  const el = h('nav', { class: 'class-filter-bar', 'aria-label': 'Browse by failure class' }, list);
  let classes: ClassCount[] = [];
  const button = (id: string, text: string, count: number, selected: string) => {
    const b = h('button', { type: 'button', class: 'class-choice', 'data-class': id, 'aria-pressed': String(id === selected) },
      text, h('span', { class: 'class-count', 'aria-label': `${count} ${count === 1 ? 'dossier' : 'dossiers'}` }, String(count)));
    b.addEventListener('click', () => {
      for (const other of list.querySelectorAll('.class-choice')) other.setAttribute('aria-pressed', String(other === b));
      onSelect(id);
    });
    return h('li', null, b);
  };
  return {
    el,
    fill(cards, selected) {
      classes = classesOf(cards);
      replace(list, [button('', 'All classes', cards.length, selected), ...classes.map((c) => button(c.id, c.label, c.count, selected))]);
    },
    labelOf(id) {
      return classes.find((c) => c.id === id)?.label ?? '';
    },
  };
}
