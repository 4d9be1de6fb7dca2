import { useCallback, useEffect, useRef, useState, type ComponentType, type ReactNode } from 'react';

import { afterPaint } from '@/lib/after-paint';

/** A widget loaded by a dynamic import; `defaultOpen` opens it as it mounts. */
export type DeferredWidget<P> = ComponentType<P & { defaultOpen?: boolean }>;
type Load<P> = () => Promise<DeferredWidget<P>>;

const loaded = new WeakMap<Load<never>, DeferredWidget<never>>();
const loading = new WeakMap<Load<never>, Promise<DeferredWidget<never>>>();

function loadOnce<P>(load: Load<P>): Promise<DeferredWidget<P>> {
  const key = load as Load<never>;
  let promise = loading.get(key) as Promise<DeferredWidget<P>> | undefined;
  if (!promise) {
    promise = load().then((widget) => {
      loaded.set(key, widget as DeferredWidget<never>);
      return widget;
    });
    // A failed download (offline) is tried again by the next request.
    promise.catch(() => loading.delete(key));
    loading.set(key, promise as Promise<DeferredWidget<never>>);
  }
  return promise;
}

/** How long after the page's first paint a deferred widget's code starts loading (unless asked for sooner). */
const WIDGET_DELAY_MS = 500;

type DeferredProps<P> = {
  /** The widget's dynamic import: a function defined once, at module level. */
  load: Load<P>;
  /** The widget's props. */
  props: P;
  /**
   * What shows until the widget has loaded: a look-alike of its closed state (same size, so nothing moves). Using
   * it calls `open`, which loads the widget at once and mounts it open.
   */
  placeholder: (open: () => void) => ReactNode;
};

/**
 * A widget whose code stays off the page's first paint (issue 8: the company home's LCP): its placeholder renders
 * with the page, and the widget's chunk is fetched once the browser is idle after that paint, then replaces it.
 * A click or key on the placeholder before then loads it at once and opens it. Keyboard focus on the placeholder
 * moves to the widget.
 */
export function Deferred<P extends object>({ load, props, placeholder }: DeferredProps<P>) {
  const [Widget, setWidget] = useState<DeferredWidget<P> | undefined>(
    () => loaded.get(load as Load<never>) as DeferredWidget<P> | undefined,
  );
  const [openOnMount, setOpenOnMount] = useState(false);
  const frame = useRef<HTMLSpanElement>(null);
  const refocus = useRef(false);
  const show = useCallback((widget: DeferredWidget<P>) => {
    // the placeholder leaves the page: keyboard focus on it goes to the widget
    refocus.current = Boolean(frame.current?.contains(document.activeElement));
    setWidget(() => widget);
  }, []);

  useEffect(() => {
    if (Widget) return;
    let current = true;
    const cancel = afterPaint(
      () => {
        loadOnce(load).then(
          (widget) => current && show(widget),
          () => undefined,
        );
      },
      { delayMs: WIDGET_DELAY_MS },
    );
    return () => {
      current = false;
      cancel();
    };
  }, [Widget, load, show]);

  useEffect(() => {
    if (Widget && refocus.current) {
      frame.current?.querySelector<HTMLElement>('button, [tabindex]:not([tabindex="-1"])')?.focus();
    }
  }, [Widget]);

  const open = () => {
    setOpenOnMount(true);
    loadOnce(load).then(show, () => setOpenOnMount(false));
  };

  return (
    <span ref={frame} style={{ display: 'contents' }}>
      {Widget ? <Widget {...props} defaultOpen={openOnMount} /> : placeholder(open)}
    </span>
  );
}
