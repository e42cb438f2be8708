// The workspace timer: seconds since the workspace was created, as the API
// counts them, ticking locally and stopping once the fix is submitted.
import { h } from '../lib/dom';
import { clock } from '../lib/format';
import type { Progress } from '../lib/types';

export interface Timer {
  el: HTMLElement;
  update(p: Progress): void;
  stop(): void;
}

/** Creates the timer element; update() re-bases it on a progress answer. */
export function timer(): Timer {
  const el = h('span', { class: 'timer', role: 'timer', 'aria-label': 'Time on this dossier' }, '00:00');
  let base = 0;
  let baseAt = performance.now();
  let running = false;
  const draw = () => {
    const secs = running ? base + (performance.now() - baseAt) / 1000 : base;
    el.textContent = clock(secs);
  };
  const tick = window.setInterval(draw, 1000);
  return {
    el,
    update(p) {
      base = p.elapsed_seconds;
      baseAt = performance.now();
      running = !p.solved_at;
      el.classList.toggle('solved', !running);
      el.title = running ? 'Time since you opened this dossier' : 'Time to the passing submission';
      draw();
    },
    stop() {
      window.clearInterval(tick);
    },
  };
}
