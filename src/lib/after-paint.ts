/**
 * Runs `run` once the browser has painted what is rendered now, `delayMs` later, when it has idle time: for work
 * that must stay off a page's first paint (issue 8: downloads started before it compete with it on a slow
 * connection; the delay leaves room for the content that follows the first paint, such as a list's rows). Returns
 * a function that cancels it.
 */
export function afterPaint(run: () => void, { delayMs = 0, idleTimeoutMs = 2000 } = {}): () => void {
  let frame: number | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let idle: number | undefined;
  const whenIdle = () => {
    if (typeof requestIdleCallback === 'function') idle = requestIdleCallback(run, { timeout: idleTimeoutMs });
    else run();
  };
  // a frame's callback runs before its paint; a task queued from there runs after it
  if (typeof requestAnimationFrame === 'function') frame = requestAnimationFrame(() => (timer = setTimeout(whenIdle, delayMs)));
  else timer = setTimeout(whenIdle, delayMs);
  return () => {
    if (frame !== undefined) cancelAnimationFrame(frame);
    clearTimeout(timer);
    if (idle !== undefined) cancelIdleCallback(idle);
  };
}
