// Navigation from code: the router in main.ts renders the page again on
// this event, even when the path stays the same (a reset preview).

/** The event main.ts renders the current path on. */
export const renderEvent = 'racecase:render';

/** Goes to a page of the app without reloading it, rendering it afresh. */
export function go(path: string): void {
  if (location.pathname !== path) history.pushState(null, '', path);
  window.dispatchEvent(new Event(renderEvent));
}
