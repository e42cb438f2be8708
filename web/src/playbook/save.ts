// Saving playbooks as Markdown files: the API renders the document, the
// browser downloads it under the name the learner will find it by.
import { describeError } from '../lib/api';
import { h } from '../lib/dom';

/** Downloads text as a Markdown file called name. */
function download(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/markdown;charset=utf-8' }));
  const a = h('a', { href: url, download: name, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * A "Save" button that fetches a Markdown document and downloads it as
 * name, saying in a polite status line what happened.
 */
export function saveButton(label: string, name: string, fetchMarkdown: () => Promise<string>, id?: string): HTMLElement {
  const status = h('span', { class: 'pb-save-status muted small', role: 'status' });
  const button = h('button', { type: 'button', class: 'btn secondary small pb-save', id }, label);
  button.addEventListener('click', async () => {
    button.disabled = true;
    status.textContent = 'Preparing the Markdown…';
    try {
      download(name, await fetchMarkdown());
      status.textContent = `Saved as ${name}.`;
    } catch (err) {
      const e = describeError(err);
      status.textContent = `Not saved: ${e.title}. ${e.detail}`;
    } finally {
      button.disabled = false;
    }
  });
  return h('span', { class: 'pb-save-group' }, button, status);
}
