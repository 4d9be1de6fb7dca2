import { describe, expect, it } from 'vitest';

import { canRecordAgain, initialTakes, takeNumber, takesReducer, type TakesAction, type TakesState } from './interview-takes';

const take = (label: string) => ({ blob: new Blob([label], { type: 'video/webm' }), mimeType: 'video/webm' });

function run(state: TakesState, ...actions: TakesAction[]) {
  return actions.reduce(takesReducer, state);
}

describe('takes', () => {
  it('counts takes: Take 1 of 3 before recording, Take 2 of 3 after Record again', () => {
    let state = initialTakes({ max: 3 });
    expect(takeNumber(state)).toBe(1);
    state = run(state, { type: 'start' });
    expect(state.phase).toBe('recording');
    expect(takeNumber(state)).toBe(1);
    state = run(state, { type: 'stopped', take: take('one') });
    expect(state.phase).toBe('review');
    expect(canRecordAgain(state)).toBe(true);
    state = run(state, { type: 'recordAgain' });
    expect(state.phase).toBe('ready');
    expect(takeNumber(state)).toBe(2);
  });

  it('offers no further take once all are used', () => {
    const state = run(
      initialTakes({ max: 2 }),
      { type: 'start' },
      { type: 'stopped', take: take('one') },
      { type: 'recordAgain' },
      { type: 'start' },
      { type: 'stopped', take: take('two') },
    );
    expect(state.used).toBe(2);
    expect(canRecordAgain(state)).toBe(false);
    expect(run(state, { type: 'recordAgain' })).toBe(state);
    expect(state.take?.blob.size).toBe(3);
  });

  it('a single-take question never offers Record again', () => {
    const state = run(initialTakes({ max: 1 }), { type: 'start' }, { type: 'stopped', take: take('only') });
    expect(canRecordAgain(state)).toBe(false);
    expect(takeNumber(state)).toBe(1);
  });

  it('time running out with nothing recorded means Time is up', () => {
    expect(run(initialTakes({ max: 2 }), { type: 'timeUp' }).phase).toBe('timeUp');
  });

  it('time running out before a retake starts keeps the earlier take to submit', () => {
    const state = run(
      initialTakes({ max: 2 }),
      { type: 'start' },
      { type: 'stopped', take: take('first') },
      { type: 'recordAgain' },
      { type: 'timeUp' },
    );
    expect(state.phase).toBe('review');
    expect(state.take?.blob.size).toBe(5);
  });

  it('a failed recording gives the take back', () => {
    const state = run(initialTakes({ max: 2 }), { type: 'start' }, { type: 'failed' });
    expect(state).toMatchObject({ phase: 'ready', used: 0 });
  });

  it('ignores actions that do not fit the phase', () => {
    const ready = initialTakes({ max: 2 });
    expect(run(ready, { type: 'stopped', take: take('x') })).toBe(ready);
    const recording = run(ready, { type: 'start' });
    expect(run(recording, { type: 'start' })).toBe(recording);
    expect(run(recording, { type: 'timeUp' })).toBe(recording);
  });

  it('starts from the takes the server counted: a reload gives none back (issue 22)', () => {
    const state = initialTakes({ max: 3, used: 2 });
    expect(state).toMatchObject({ phase: 'ready', used: 2 });
    expect(takeNumber(state)).toBe(3);
    const last = run(state, { type: 'start' }, { type: 'stopped', take: take('last') });
    expect(canRecordAgain(last)).toBe(false);
  });

  it('shows a kept take for review as the take it was: submitting it uses no new take, recording again uses one', () => {
    const kept = take('kept');
    const state = initialTakes({ max: 2, used: 1, kept });
    expect(state).toMatchObject({ phase: 'review', used: 1, take: kept });
    expect(takeNumber(state)).toBe(1);
    const again = run(state, { type: 'recordAgain' }, { type: 'start' });
    expect(again).toMatchObject({ phase: 'recording', used: 2 });
    expect(canRecordAgain(initialTakes({ max: 2, used: 2, kept }))).toBe(false);
  });
});
