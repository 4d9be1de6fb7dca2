// Keeps one child process running: when it exits without having been asked to, it is started again after a wait
// that doubles from exit to exit (and falls back to the first wait once a run has lasted a while); when it keeps
// dying (a crash loop), the supervisor gives up and says so, because restarting forever would only hide the fault.
// It knows nothing of what it runs: `npm start` supervises PocketBase and the media worker with it, and a
// production runner can reuse the same policy.

/**
 * @typedef {import("node:child_process").ChildProcess} ChildProcess
 * @typedef {{ code?: number | null, signal?: NodeJS.Signals | null, error?: unknown }} Exit
 * @typedef {{ name: string, exits: number, windowMs: number, last: string }} GiveUpReport
 */

export const DEFAULT_POLICY = {
  /** the wait before the first restart; each further exit doubles it... */
  initialDelayMs: 1000,
  /** ...up to this */
  maxDelayMs: 30_000,
  /** a child that ran this long before it exited was healthy: the wait starts again from initialDelayMs */
  resetAfterMs: 60_000,
  /** this many exits (failed restarts included) within crashLoopWindowMs is a crash loop: give up */
  crashLoopExits: 5,
  crashLoopWindowMs: 120_000,
  /** stop() sends SIGTERM, then SIGKILL after this long */
  stopGraceMs: 5000,
};

/** "code 1", "signal SIGKILL", or the reason a start failed (its first line). @param {Exit} exit */
export function describeExit({ code = null, signal = null, error }) {
  if (error !== undefined) return (error instanceof Error ? error.message : String(error)).trim().split("\n")[0];
  return signal ? `signal ${signal}` : `code ${code}`;
}

/** 500 ms, 4 s, 2 min @param {number} ms */
export function formatDuration(ms) {
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000 || ms % 60_000 !== 0) return `${Math.round(ms / 100) / 10} s`;
  return `${ms / 60_000} min`;
}

/**
 * Starts `start()` and restarts what it returned whenever that exits unexpectedly. A failure of the first start
 * rejects `started` and is not retried (it is a setup problem: a port in use, a missing binary); a failure of a
 * restart counts as one more exit. Lines go to `log` without a prefix.
 * @param {{
 *   name: string,
 *   start: (context: { restart: boolean, signal: AbortSignal }) => Promise<ChildProcess>,
 *   hint?: string,
 *   log?: (line: string) => void,
 *   onGiveUp?: (report: GiveUpReport) => void,
 *   policy?: Partial<typeof DEFAULT_POLICY>,
 *   now?: () => number,
 * }} options `hint` says what to look at after a crash loop; `signal` is aborted by stop() and by giving up, so a
 *   start that waits for something can end early; `now` is for tests.
 * @returns {{ started: Promise<ChildProcess>, readonly child: ChildProcess | undefined, stop: () => Promise<void> }}
 */
export function supervise({ name, start, hint, log = (line) => console.error(line), onGiveUp = () => {}, policy = {}, now = Date.now }) {
  const { initialDelayMs, maxDelayMs, resetAfterMs, crashLoopExits, crashLoopWindowMs, stopGraceMs } = {
    ...DEFAULT_POLICY,
    ...policy,
  };
  const ended = new AbortController(); // aborted once nothing may be started any more
  /** @type {ChildProcess | undefined} */
  let child;
  /** @type {Promise<ChildProcess | undefined> | undefined} a start in progress */
  let launching;
  /** @type {Promise<void> | undefined} */
  let stopping;
  let nextDelayMs = initialDelayMs;
  /** @type {number[]} */
  let exitTimes = [];

  /** @param {boolean} restart */
  async function launch(restart) {
    const started = await start({ restart, signal: ended.signal });
    if (ended.signal.aborted) {
      await stopProcess(started, stopGraceMs); // stop() came while it was starting
      return undefined;
    }
    child = started;
    watch(started, now());
    return started;
  }

  /** @param {ChildProcess} proc @param {number} startedAt */
  function watch(proc, startedAt) {
    let seen = false;
    /** @param {Exit} exit */
    const exited = (exit) => {
      if (seen) return;
      seen = true;
      if (child === proc) child = undefined;
      if (!ended.signal.aborted) void afterExit(exit, now() - startedAt);
    };
    proc.once("exit", (code, signal) => exited({ code, signal }));
    // a child that could not be spawned at all (ENOENT) emits 'error' and never 'exit'
    proc.on("error", (error) => {
      if (proc.pid === undefined) exited({ error });
    });
    if (proc.exitCode !== null || proc.signalCode !== null) exited({ code: proc.exitCode, signal: proc.signalCode });
  }

  /** @param {Exit} exit @param {number} ranForMs */
  async function afterExit(exit, ranForMs) {
    const at = now();
    exitTimes = [...exitTimes.filter((time) => at - time < crashLoopWindowMs), at];
    const what = exit.error === undefined ? `exited (${describeExit(exit)})` : `could not start again (${describeExit(exit)})`;
    if (exitTimes.length >= crashLoopExits) {
      giveUp(describeExit(exit));
      return;
    }
    if (ranForMs >= resetAfterMs) nextDelayMs = initialDelayMs;
    const delayMs = nextDelayMs;
    nextDelayMs = Math.min(nextDelayMs * 2, maxDelayMs);
    log(`${name} ${what}; restarting in ${formatDuration(delayMs)}`);

    await wait(delayMs, ended.signal);
    if (ended.signal.aborted) return;
    launching = launch(true);
    try {
      const restarted = await launching;
      if (restarted) log(`${name} restarted (pid ${restarted.pid})`);
    } catch (error) {
      if (!ended.signal.aborted) void afterExit({ error }, 0);
    } finally {
      launching = undefined;
    }
  }

  /** @param {string} last */
  function giveUp(last) {
    ended.abort();
    log(
      `${name} exited ${exitTimes.length} times within ${formatDuration(crashLoopWindowMs)} (last: ${last}); ` +
        `giving up on it.${hint ? `\n  ${hint}` : ""}`,
    );
    onGiveUp({ name, exits: exitTimes.length, windowMs: crashLoopWindowMs, last });
  }

  launching = launch(false);
  const started = launching.then((proc) => {
    launching = undefined;
    if (!proc) throw new Error(`${name} was stopped while it was starting`);
    return proc;
  });
  // the caller awaits `started`; a failed start must not also surface here as an unhandled rejection
  started.catch(() => {
    ended.abort();
    launching = undefined;
  });

  return {
    started,
    get child() {
      return child;
    },
    stop() {
      stopping ??= (async () => {
        ended.abort(); // ends a backoff wait at once, and no restart follows
        await launching?.catch(() => {});
        if (child) await stopProcess(child, stopGraceMs);
      })();
      return stopping;
    },
  };
}

/** @param {number} ms @param {AbortSignal} signal */
function wait(ms, signal) {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(undefined);
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve(undefined);
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done);
  });
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves once it has exited. @param {ChildProcess} proc @param {number} graceMs */
function stopProcess(proc, graceMs) {
  return new Promise((resolve) => {
    if (proc.pid === undefined || proc.exitCode !== null || proc.signalCode !== null) return resolve(undefined);
    const timer = setTimeout(() => proc.kill("SIGKILL"), graceMs);
    proc.once("exit", () => {
      clearTimeout(timer);
      resolve(undefined);
    });
    proc.kill("SIGTERM");
  });
}
