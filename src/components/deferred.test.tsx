import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';

import { Deferred, type DeferredWidget } from './deferred';

type Props = { label: string };

/** A stand-in widget chunk whose download the test releases. */
function widgetChunk() {
  let release: () => void = () => undefined;
  const downloaded = new Promise<void>((resolve) => (release = resolve));
  const Widget: DeferredWidget<Props> = ({ label, defaultOpen }) => (
    <button type="button" aria-expanded={Boolean(defaultOpen)}>
      {label} (widget)
    </button>
  );
  const load = vi.fn(async () => {
    await downloaded;
    return Widget;
  });
  return { load, release };
}

function renderDeferred(load: () => Promise<DeferredWidget<Props>>) {
  return render(
    <Deferred<Props>
      load={load}
      props={{ label: 'Menu' }}
      placeholder={(open) => (
        <button type="button" onClick={open}>
          Menu (placeholder)
        </button>
      )}
    />,
  );
}

describe('Deferred', () => {
  it('draws the placeholder first, loads the widget after the first paint and swaps it in, closed', async () => {
    const chunk = widgetChunk();
    renderDeferred(chunk.load);
    expect(screen.getByRole('button', { name: 'Menu (placeholder)' })).toBeInTheDocument();
    expect(chunk.load).not.toHaveBeenCalled();

    await waitFor(() => expect(chunk.load).toHaveBeenCalledTimes(1));
    await act(async () => {
      chunk.release();
      await Promise.resolve();
    });
    expect(await screen.findByRole('button', { name: 'Menu (widget)' })).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('button', { name: 'Menu (placeholder)' })).not.toBeInTheDocument();
  });

  it('loads at once when the placeholder is used, opens the widget and keeps the keyboard focus on it', async () => {
    const chunk = widgetChunk();
    renderDeferred(chunk.load);
    const placeholder = screen.getByRole('button', { name: 'Menu (placeholder)' });
    placeholder.focus();
    await userEvent.keyboard('{Enter}');
    expect(chunk.load).toHaveBeenCalledTimes(1);

    await act(async () => {
      chunk.release();
      await Promise.resolve();
    });
    const widget = await screen.findByRole('button', { name: 'Menu (widget)' });
    expect(widget).toHaveAttribute('aria-expanded', 'true');
    await waitFor(() => expect(widget).toHaveFocus());
  });

  it('renders the widget straight away once its chunk is loaded (the next page, the next mount)', async () => {
    const chunk = widgetChunk();
    chunk.release();
    const first = renderDeferred(chunk.load);
    await screen.findByRole('button', { name: 'Menu (widget)' });
    first.unmount();

    renderDeferred(chunk.load);
    expect(screen.getByRole('button', { name: 'Menu (widget)' })).toBeInTheDocument();
    expect(chunk.load).toHaveBeenCalledTimes(1);
  });

  it('keeps the placeholder when the download fails, and tries again when it is used', async () => {
    const Widget: DeferredWidget<Props> = ({ label }) => <button type="button">{label} (widget)</button>;
    const load = vi.fn().mockRejectedValueOnce(new Error('offline')).mockResolvedValue(Widget);
    renderDeferred(load);
    await waitFor(() => expect(load).toHaveBeenCalledTimes(1));
    expect(screen.getByRole('button', { name: 'Menu (placeholder)' })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Menu (placeholder)' }));
    expect(await screen.findByRole('button', { name: 'Menu (widget)' })).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(2);
  });
});
