import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';

import { renderInPlace } from '@/lib/render-in-place';

// what pocketbase/first_screens.go writes: controls that wait for the app are disabled or read-only, the ids are fixed,
// and the data the app starts from is in a script element
const written = `<main class="rt-Box screen"><h1 class="rt-Heading">Jobs</h1>` +
  `<label for="fixed-1">Show archived jobs</label><input id="fixed-1" type="checkbox" disabled>` +
  `<input aria-label="Search answers" type="search" readonly value="">` +
  `<button type="button" class="rt-Button" disabled data-disabled="">Delete Support engineer</button>` +
  `<p>3 candidates</p><script type="application/json" id="data">{"jobs":[]}</script></main>`;

function Screen({ candidates }: { candidates: number }) {
  const [deleted, setDeleted] = useState(false);
  const [archived, setArchived] = useState(false);
  return (
    <main className="rt-Box screen">
      <h1 className="rt-Heading">Jobs</h1>
      <label htmlFor="r7">Show archived jobs</label>
      <input id="r7" type="checkbox" checked={archived} onChange={(event) => setArchived(event.target.checked)} />
      <input aria-label="Search answers" type="search" />
      <button type="button" className="rt-Button" onClick={() => setDeleted(true)}>
        {deleted ? 'Deleted' : 'Delete Support engineer'}
      </button>
      <p>{candidates} candidates</p>
      <section aria-label="Notifications" />
    </main>
  );
}

let container: HTMLElement;
afterEach(() => container.remove());

describe('renderInPlace: the app rendered over the screen the server wrote', () => {
  it("keeps the written elements, gives them the app's attributes and listeners, and removes what the app does not render", async () => {
    container = document.createElement('div');
    container.innerHTML = written;
    document.body.append(container);
    const before = {
      main: container.querySelector('main'),
      heading: container.querySelector('h1'),
      box: container.querySelector('input[type=checkbox]'),
      search: container.querySelector('input[type=search]'),
      button: container.querySelector('button'),
    };

    renderInPlace(<Screen candidates={4} />, container);

    // the same elements: nothing was emptied and built again
    expect(container.querySelector('main')).toBe(before.main);
    expect(container.querySelector('h1')).toBe(before.heading);
    expect(container.querySelector('input[type=checkbox]')).toBe(before.box);
    expect(container.querySelector('input[type=search]')).toBe(before.search);
    expect(container.querySelector('button')).toBe(before.button);
    // now as the app renders them: the controls usable, the app's ids, the app's text
    expect(before.box).not.toBeDisabled();
    expect(before.box).toHaveAttribute('id', 'r7');
    expect(container.querySelector('label')).toHaveAttribute('for', 'r7');
    expect(before.search).not.toHaveAttribute('readonly');
    expect(before.button).not.toBeDisabled();
    expect(before.button).not.toHaveAttribute('data-disabled');
    expect(before.main).toHaveClass('rt-Box', 'screen');
    expect(container.querySelector('p')).toHaveTextContent('4 candidates');
    // the server's data went, the app's own region came
    expect(container.querySelector('script')).toBeNull();
    expect(container.querySelector('section[aria-label="Notifications"]')).not.toBeNull();
    expect(container.querySelectorAll('main')).toHaveLength(1);

    // and its listeners work
    before.button!.click();
    await expect.poll(() => before.button!.textContent).toBe('Deleted');
    (before.box as HTMLInputElement).click();
    await expect.poll(() => (before.box as HTMLInputElement).checked).toBe(true);
  });

  it('builds in their place what the app renders differently inside the written screen', () => {
    container = document.createElement('div');
    container.innerHTML = '<main class="rt-Box screen"><div class="loading"><span>Loading…</span></div></main>';
    document.body.append(container);

    renderInPlace(<Screen candidates={0} />, container);

    expect(container.querySelector('.loading')).toBeNull();
    expect(container.textContent).not.toContain('Loading…');
    expect(container.querySelector('h1')).toHaveTextContent('Jobs');
    expect(container.querySelector('button')).not.toBeDisabled();
  });
});
