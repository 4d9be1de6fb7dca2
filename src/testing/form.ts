import { screen } from '@testing-library/react';
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

