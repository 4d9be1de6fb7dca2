/**
 * What `react` is in the app (vite.config.ts's aliases): preact/compat, whose runtime is 10 KB gzip where react-dom's
 * is 63 KB (issue 20), with two differences mended:
 * - Preact's `useId` counts from 0 in each render root, and every portal (each Radix dialog, menu, popover) is a
 *   root of its own, so a dialog opened over another gave its title the same id as the first one's, and
 *   `aria-labelledby` named the wrong dialog. Ids here come from one counter for the page: there is no server
 *   rendering whose ids they would have to match.
 * - React focuses an element rendered with `autoFocus` when it mounts; Preact only sets the `autofocus` attribute,
 *   which a browser honours once per page load. An element rendered with it is focused here when it mounts.
 */
import { options, type VNode } from 'preact';
import compat from 'preact/compat';
import { useState } from 'preact/hooks';

let nextId = 0;

export function useId(): string {
  const [id] = useState(() => `r${(nextId++).toString(36)}`);
  return id;
}

// for code that reads it from the default export (`React.useId`)
compat.useId = useId;

type Ref = ((element: Element | null) => unknown) | { current: Element | null } | null | undefined;
const focused = new WeakSet<Element>();

function focusOnMount(element: Element | null) {
  if (!(element instanceof HTMLElement) || focused.has(element)) return;
  focused.add(element);
  // the ref runs before the new subtree is in the page
  queueMicrotask(() => element.focus());
}

const previousVnodeHook = options.vnode?.bind(options);
options.vnode = (vnode: VNode) => {
  const props = vnode.props as { autoFocus?: boolean } | null;
  if (typeof vnode.type === 'string' && props?.autoFocus) {
    delete props.autoFocus;
    const own = (vnode as { ref?: Ref }).ref;
    (vnode as { ref?: Ref }).ref = (element: Element | null) => {
      focusOnMount(element);
      if (typeof own === 'function') return own(element);
      if (own) own.current = element;
      return undefined;
    };
  }
  previousVnodeHook?.(vnode);
};

// @ts-expect-error: preact/compat's types are an `export =`; the module itself has named exports, re-exported here
export * from 'preact/compat';
export default compat;
