/**
 * The app's first render over a screen the server already wrote (pocketbase/first_screens.go): the candidate's start
 * screen, the sign-in, the company home.
 *
 * `createRoot(container).render(...)` (preact/compat, like React) first empties the container and builds every
 * element again, with their styles and layout: on the company home that rebuild was the one long task of the page
 * (issue 20, Lighthouse's blocking time). Preact's own `render` into a container that has children reuses them
 * instead: each element the app renders takes the written element of the same tag in the same place, its attributes
 * are compared with the ones the app gives and set where they differ (the written `disabled`/`readonly` of controls
 * that wait for the app go, the app's ids come in), its listeners are added, and what the app does not render is
 * removed. Unlike hydration, which trusts the written attributes and adds only listeners, the page ends up exactly as
 * the app renders it.
 *
 * What is compared is inside the container's top-level elements: Preact leaves a written top-level node the app does
 * not render where it is. The written screens have one, the Radix theme's element the app renders first too
 * (e2e/first-screens.spec.ts compares the page after the app's render with the written one, node by node).
 */
import { render } from 'preact';
import type { ReactElement } from 'react';

export function renderInPlace(element: ReactElement, container: Element): void {
  // the app's elements are preact/compat's (vite.config.ts's aliases)
  render(element, container);
}
