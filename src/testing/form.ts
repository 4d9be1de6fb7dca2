import { fireEvent, screen } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';

/** Replaces the value of each labelled field (pasted: long values typed key by key are slow). */
export async function fillFields(user: UserEvent, values: Record<string, string>) {
  for (const [label, value] of Object.entries(values)) {
    const field = screen.getByLabelText(label);
    await user.clear(field);
    if (value) {
      await user.click(field);
      await user.paste(value);
    }
  }
}

export const chars = (count: number) => 'a'.repeat(count);

/**
 * Sets a field's value in one event: `input` for a text field (what a browser fires as one types, and the event
 * Preact's `onChange` listens to, issue 20), `change` for a select (what a browser fires when one is chosen).
 */
export function setValue(field: HTMLElement, value: string) {
  if (field instanceof HTMLSelectElement) fireEvent.change(field, { target: { value } });
  else fireEvent.input(field, { target: { value } });
}
