import { lazy, Suspense, useSyncExternalStore } from 'react';

// sonner (about 10 KB gzip with its styles) is not part of a first visit: the toaster mounts once the code of a screen
// that can raise a toast has loaded (./toast.ts). A toast raised before it mounted is still shown (sonner replays
// active toasts).
const SonnerToaster = lazy(() => import('sonner').then((m) => ({ default: m.Toaster })));

let wanted = false;
const listeners = new Set<() => void>();

/** Mounts the toaster from now on. */
export function enableToaster(): void {
  if (wanted) return;
  wanted = true;
  listeners.forEach((listener) => listener());
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The one toaster of the app (decisions.md: 4000 ms, 3 visible), mounted by the app's provider. */
export function Toaster() {
  const on = useSyncExternalStore(subscribe, () => wanted);
  if (!on) return null;
  return (
    <Suspense fallback={null}>
      <SonnerToaster duration={4000} visibleToasts={3} />
    </Suspense>
  );
}

/**
 * An error toast from code on a first screen's critical path (the manager shell's company switcher), which would
 * otherwise pull sonner into that screen's chunks: sonner loads when the toast is raised.
 */
export function showErrorToast(message: string): void {
  enableToaster();
  void import('sonner').then(({ toast }) => toast.error(message));
}
