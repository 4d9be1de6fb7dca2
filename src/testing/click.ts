import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect } from 'vitest';

/**
 * Clicks the named button once it is on the screen and enabled. A disabled button takes a click without a word
 * (user-event, like a browser, sends it nowhere), and the test then waits for what the click never started: 'Start
 * Recording' is on the screen, disabled, until the camera is open, which a busy machine takes its time over.
 */
export async function clickWhenEnabled(name: string | RegExp) {
  await waitFor(() => expect(screen.getByRole('button', { name })).toBeEnabled());
  await userEvent.click(screen.getByRole('button', { name }));
}
