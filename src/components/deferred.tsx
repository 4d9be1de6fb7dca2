import { useCallback, useEffect, useRef, useState, type ComponentType, type ReactNode } from 'react';

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
 * A widget whose code stays off the page's first visit (issues 8 and 20: the user menu and the company switcher
 * brought Radix's menu, select and theme code, about 40 KB gzip, to every manager page's first visit): its
 * placeholder renders with the page, and the widget's chunk is fetched when the manager shows the intent to use it:
 * pointing at the placeholder, pressing on it or moving the keyboard focus to it. Using the placeholder (a click, or
 * the keys that open the widget) mounts the widget open in its place, at once when the chunk is there already, and
 * keyboard focus on the placeholder moves to the widget. The next page that shows it renders the widget itself.
 */
export function Deferred<P extends object>({ load, props, placeholder }: DeferredProps<P>) {
  const [Widget, setWidget] = useState<DeferredWidget<P> | undefined>(
    () => loaded.get(load as Load<never>) as DeferredWidget<P> | undefined,
  );
  const [openOnMount, setOpenOnMount] = useState(false);
  const frame = useRef<HTMLSpanElement>(null);
  const refocus = useRef(false);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  const show = useCallback((widget: DeferredWidget<P>) => {
    if (!mounted.current) return;
    // the placeholder leaves the page: keyboard focus on it goes to the widget
    refocus.current = Boolean(frame.current?.contains(document.activeElement));
    setWidget(() => widget);
  }, []);

  useEffect(() => {
    if (Widget && refocus.current) {
      frame.current?.querySelector<HTMLElement>('button, [tabindex]:not([tabindex="-1"])')?.focus();
    }
  }, [Widget]);

  // the chunk only: the placeholder stays until it is used, so nothing is swapped under a pointer about to press it
  const preload = () => {
    if (!Widget) loadOnce(load).catch(() => undefined);
  };
  const open = () => {
    setOpenOnMount(true);
    loadOnce(load).then(show, () => setOpenOnMount(false));
  };

  return (
    <span
      ref={frame}
      style={{ display: 'contents' }}
      onPointerOver={preload}
      onPointerDown={preload}
      onFocusCapture={preload}
    >
      {Widget ? <Widget {...props} defaultOpen={openOnMount} /> : placeholder(open)}
    </span>
  );
}
