// @vitest-environment node
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';

import { afterEach, describe, expect, it } from 'vitest';

import { describeExit, formatDuration, supervise, type GiveUpReport } from './supervise.mjs';

/** A real child: `node -e script`. */
function node(script: string): ChildProcess {
  return spawn(process.execPath, ['-e', script], { stdio: 'ignore' });
}
const exitsWith = (code: number) => node(`process.exit(${code})`);
const runsUntilKilled = () => node('setInterval(() => {}, 1000)');

/** The supervisor's lines, and a way to wait for one (a wait for an event, not a time). */
function lines() {
  const all: string[] = [];
  const waiting = new Set<() => void>();
  return {
    all,
    log(line: string) {
      all.push(line);
      for (const check of [...waiting]) check();
    },
    /** the n-th line matching `pattern`, counted from the first line ever logged */
    nth(pattern: RegExp, n = 1): Promise<string> {
      return new Promise((resolve) => {
        const check = () => {
          const found = all.filter((line) => pattern.test(line))[n - 1];
          if (found === undefined) return;
          waiting.delete(check);
          resolve(found);
        };
        waiting.add(check);
        check();
      });
    },
  };
}

const fast = { initialDelayMs: 20, maxDelayMs: 80, resetAfterMs: 60_000, crashLoopExits: 100, crashLoopWindowMs: 120_000 };
const supervisors: { stop: () => Promise<void> }[] = [];
const spawned: ChildProcess[] = [];
afterEach(async () => {
  await Promise.all(supervisors.splice(0).map((s) => s.stop()));
  for (const child of spawned.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/** Supervises the children `next()` returns, counting the starts. */
function supervised(next: (start: number) => ChildProcess, options: Partial<Parameters<typeof supervise>[0]> = {}) {
  const log = lines();
  let starts = 0;
  const handle = supervise({
    name: 'Demo',
    start: async () => {
      const child = next(++starts);
      spawned.push(child);
      return child;
    },
    log: log.log,
    ...options,
    policy: { ...fast, ...options.policy },
  });
  supervisors.push(handle);
  return { handle, log, starts: () => starts };
}

describe('supervise', () => {
  it('restarts a child that exits unexpectedly, with a line naming it and its exit code', async () => {
    const { handle, log, starts } = supervised((n) => (n === 1 ? exitsWith(3) : runsUntilKilled()));
    await handle.started;

    expect(await log.nth(/exited/)).toBe('Demo exited (code 3); restarting in 20 ms');
    expect(await log.nth(/restarted/)).toMatch(/^Demo restarted \(pid \d+\)$/);
    expect(starts()).toBe(2);
    expect(handle.child?.exitCode).toBeNull();
  });

  it('names the signal of a child that was killed', async () => {
    const { handle, log, starts } = supervised(() => runsUntilKilled());
    const first = await handle.started;
    first.kill('SIGKILL');

    expect(await log.nth(/exited/)).toBe('Demo exited (signal SIGKILL); restarting in 20 ms');
    await log.nth(/restarted/);
    expect(starts()).toBe(2);
    expect(handle.child).not.toBe(first);
  });

  it('doubles the wait after each exit, up to the longest', async () => {
    const { handle, log } = supervised(() => exitsWith(1));
    await handle.started;
    await log.nth(/restarting in/, 5);

    const waits = log.all.filter((l) => l.includes('restarting in')).slice(0, 5).map((l) => l.replace(/.*restarting in /, ''));
    expect(waits).toEqual(['20 ms', '40 ms', '80 ms', '80 ms', '80 ms']);
  });

  it('starts again from the shortest wait after a child that ran a while', async () => {
    let clock = 0;
    const { handle, log } = supervised((n) => (n <= 2 ? exitsWith(1) : runsUntilKilled()), { now: () => clock });
    await handle.started;
    expect(await log.nth(/exited/, 2)).toBe('Demo exited (code 1); restarting in 40 ms');
    await log.nth(/restarted/, 2);
    const third = handle.child!;

    clock += 60_000; // the third child has now run for the whole reset period
    third.kill('SIGKILL');
    expect(await log.nth(/exited/, 3)).toBe('Demo exited (signal SIGKILL); restarting in 20 ms');
  });

  it('gives up on a crash loop, saying which process, its last exit and what to look at', async () => {
    let gaveUp: (report: GiveUpReport) => void = () => {};
    const report = new Promise<GiveUpReport>((resolve) => (gaveUp = resolve));
    const { handle, log, starts } = supervised(() => exitsWith(7), {
      hint: 'Look at the [demo] lines above.',
      onGiveUp: (r) => gaveUp(r),
      policy: { crashLoopExits: 3, crashLoopWindowMs: 120_000 },
    });
    await handle.started;

    expect(await report).toEqual({ name: 'Demo', exits: 3, windowMs: 120_000, last: 'code 7' });
    expect(log.all).toEqual([
      'Demo exited (code 7); restarting in 20 ms',
      expect.stringMatching(/^Demo restarted/),
      'Demo exited (code 7); restarting in 40 ms',
      expect.stringMatching(/^Demo restarted/),
      'Demo exited 3 times within 2 min (last: code 7); giving up on it.\n  Look at the [demo] lines above.',
    ]);
    await handle.stop();
    expect(starts()).toBe(3);
    expect(handle.child).toBeUndefined();
  });

  it('does not count exits further apart than the crash-loop window', async () => {
    let clock = 0;
    let gaveUp = false;
    const { handle, log } = supervised((n) => (n <= 4 ? exitsWith(1) : runsUntilKilled()), {
      now: () => clock,
      onGiveUp: () => (gaveUp = true),
      policy: { crashLoopExits: 3, crashLoopWindowMs: 10_000 },
    });
    await handle.started;
    for (let exits = 1; exits <= 4; exits++) {
      await log.nth(/exited/, exits);
      clock += 6_000; // two exits fit in the window, never three
    }
    await log.nth(/restarted/, 4);
    expect(gaveUp).toBe(false);
    expect(handle.child?.exitCode).toBeNull();
  });

  it('counts a restart that fails to start as an exit and tries again', async () => {
    let starts = 0;
    const log = lines();
    const handle = supervise({
      name: 'Demo',
      start: async () => {
        starts++;
        if (starts === 2) throw new Error('Port 1 is still in use.\nmore detail');
        const child = starts === 1 ? exitsWith(2) : runsUntilKilled();
        spawned.push(child);
        return child;
      },
      log: log.log,
      policy: fast,
    });
    supervisors.push(handle);
    await handle.started;

    expect(await log.nth(/could not start/)).toBe('Demo could not start again (Port 1 is still in use.); restarting in 40 ms');
    await log.nth(/restarted/);
    expect(starts).toBe(3);
  });

  it('stop() during a backoff wait ends it at once and restarts nothing', async () => {
    const { handle, log, starts } = supervised(() => exitsWith(1), { policy: { initialDelayMs: 600_000 } });
    await handle.started;
    expect(await log.nth(/restarting in/)).toBe('Demo exited (code 1); restarting in 10 min');

    await handle.stop(); // well inside the test's timeout, not ten minutes
    expect(starts()).toBe(1);
    expect(log.all).toHaveLength(1);
  });

  it('stop() stops the running child with SIGTERM and does not restart it', async () => {
    const { handle, log, starts } = supervised(() => runsUntilKilled());
    const child = await handle.started;
    const exited = once(child, 'exit');

    await handle.stop();
    expect(await exited).toEqual([null, 'SIGTERM']);
    expect(starts()).toBe(1);
    expect(log.all).toEqual([]);
  });

  it('rejects `started` when the first start fails, without retrying', async () => {
    let starts = 0;
    const handle = supervise({
      name: 'Demo',
      start: async () => {
        starts++;
        throw new Error('Port 8090 (Demo) is already in use.');
      },
      policy: fast,
    });
    await expect(handle.started).rejects.toThrow('already in use');
    await handle.stop();
    expect(starts).toBe(1);
  });
});

describe('describeExit and formatDuration', () => {
  it('says an exit code, a signal, or the first line of a failed start', () => {
    expect(describeExit({ code: 1, signal: null })).toBe('code 1');
    expect(describeExit({ code: null, signal: 'SIGKILL' })).toBe('signal SIGKILL');
    expect(describeExit({ error: new Error('no port\nstack') })).toBe('no port');
  });

  it('prints waits the way a person reads them', () => {
    expect([500, 1000, 1500, 30_000, 90_000, 120_000].map(formatDuration)).toEqual(['500 ms', '1 s', '1.5 s', '30 s', '90 s', '2 min']);
  });
});
