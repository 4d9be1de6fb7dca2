import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
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
  it('draws the placeholder and loads nothing until it is pointed at; used then, it opens the widget', async () => {
    const chunk = widgetChunk();
    renderDeferred(chunk.load);
    const placeholder = screen.getByRole('button', { name: 'Menu (placeholder)' });
    // a while later (the page idle), nothing has been fetched
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(chunk.load).not.toHaveBeenCalled();

    await userEvent.hover(placeholder);
    expect(chunk.load).toHaveBeenCalledTimes(1);
    await act(async () => {
      chunk.release();
      await Promise.resolve();
    });
    // loaded, the placeholder stays under the pointer until it is used
    expect(screen.getByRole('button', { name: 'Menu (placeholder)' })).toBeInTheDocument();

    await userEvent.click(placeholder);
    expect(await screen.findByRole('button', { name: 'Menu (widget)' })).toHaveAttribute('aria-expanded', 'true');
    expect(screen.queryByRole('button', { name: 'Menu (placeholder)' })).not.toBeInTheDocument();
    expect(chunk.load).toHaveBeenCalledTimes(1);
  });

  it('loads when the keyboard focus reaches the placeholder; a key opens the widget, which keeps the focus', async () => {
    const chunk = widgetChunk();
    renderDeferred(chunk.load);
    await userEvent.tab();
    expect(screen.getByRole('button', { name: 'Menu (placeholder)' })).toHaveFocus();
    expect(chunk.load).toHaveBeenCalledTimes(1);

    await userEvent.keyboard('{Enter}');
    await act(async () => {
      chunk.release();
      await Promise.resolve();
    });
    const widget = await screen.findByRole('button', { name: 'Menu (widget)' });
    expect(widget).toHaveAttribute('aria-expanded', 'true');
    await waitFor(() => expect(widget).toHaveFocus());
  });

  it('loads at once when the placeholder is used before any other intent, and opens the widget', async () => {
    const chunk = widgetChunk();
    renderDeferred(chunk.load);
    // a click alone (a screen reader's activation, a synthetic click): no pointer over it, no focus first
    fireEvent.click(screen.getByRole('button', { name: 'Menu (placeholder)' }));
    expect(chunk.load).toHaveBeenCalledTimes(1);

    await act(async () => {
      chunk.release();
      await Promise.resolve();
    });
    expect(await screen.findByRole('button', { name: 'Menu (widget)' })).toHaveAttribute('aria-expanded', 'true');
  });

  it('renders the widget straight away once its chunk is loaded (the next page, the next mount)', async () => {
    const chunk = widgetChunk();
    chunk.release();
    const first = renderDeferred(chunk.load);
    await userEvent.click(screen.getByRole('button', { name: 'Menu (placeholder)' }));
    await screen.findByRole('button', { name: 'Menu (widget)' });
    first.unmount();

    renderDeferred(chunk.load);
    expect(screen.getByRole('button', { name: 'Menu (widget)' })).toHaveAttribute('aria-expanded', 'false');
    expect(chunk.load).toHaveBeenCalledTimes(1);
  });

  it('keeps the placeholder when the download fails, and tries again when it is used', async () => {
    const Widget: DeferredWidget<Props> = ({ label }) => <button type="button">{label} (widget)</button>;
    const load = vi.fn().mockRejectedValueOnce(new Error('offline')).mockResolvedValue(Widget);
    renderDeferred(load);
    await userEvent.hover(screen.getByRole('button', { name: 'Menu (placeholder)' }));
    await waitFor(() => expect(load).toHaveBeenCalledTimes(1));
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(screen.getByRole('button', { name: 'Menu (placeholder)' })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Menu (placeholder)' }));
    expect(await screen.findByRole('button', { name: 'Menu (widget)' })).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(2);
  });
});
