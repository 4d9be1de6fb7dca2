import { render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';

// The page-wide useId is proven where it matters: share-candidate-button.test.tsx opens a confirmation over the Share
// dialog and finds it by its title, which fails with Preact's own useId.
describe('react, as the app runs it (preact/compat through src/lib/react-on-preact.ts)', () => {
  it('focuses an element rendered with autoFocus when it mounts, once, and still hands its ref over', async () => {
    const refs: (HTMLTextAreaElement | null)[] = [];
    function Editor() {
      const [editing, setEditing] = useState(false);
      const [count, setCount] = useState(0);
      return (
        <>
          <button type="button" onClick={() => setEditing(true)}>
            Edit
          </button>
          <button type="button" onClick={() => setCount(count + 1)}>
            Render again {count}
          </button>
          {editing && <textarea aria-label="Comment" autoFocus ref={(node) => void refs.push(node)} />}
        </>
      );
    }
    render(<Editor />);
    screen.getByRole('button', { name: 'Edit' }).click();
    const field = await screen.findByRole('textbox', { name: 'Comment' });
    await waitFor(() => expect(field).toHaveFocus());
    expect(refs).toContain(field);
    expect(field).not.toHaveAttribute('autofocus');

    // moved away, a render does not take the focus back
    const again = screen.getByRole('button', { name: /Render again/ });
    again.focus();
    again.click();
    await screen.findByRole('button', { name: 'Render again 1' });
    // the focus would move in a microtask of that render: all of them have run by the next task
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(again).toHaveFocus();
  });
});
