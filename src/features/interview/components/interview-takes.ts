import type { Take } from '../upload/media-recorder';

/**
 * The takes of one video answer (decisions.md "Candidate interview"): record, watch, then submit or record again
 * while takes remain. A new take replaces the last only once it is recorded, so time running out before a retake
 * starts still leaves the earlier take to submit.
 */
export type TakesState = {
  phase: 'ready' | 'recording' | 'review' | 'timeUp';
  /** Takes started so far. */
  used: number;
  max: number;
  take: Take | null;
};

export type TakesAction =
  | { type: 'start' }
  | { type: 'stopped'; take: Take }
  | { type: 'recordAgain' }
  | { type: 'timeUp' }
  | { type: 'failed' };

/**
 * `used`: the takes the server already counted (a reload gives none back); `kept`: a take recorded on an earlier
 * visit and never submitted, shown for review as the take it was (issue 22).
 */
export function initialTakes({ max, used = 0, kept = null }: { max: number; used?: number; kept?: Take | null }): TakesState {
  const limit = Math.max(1, max);
  if (kept) return { phase: 'review', used: Math.min(Math.max(used, 1), limit), max: limit, take: kept };
  return { phase: 'ready', used: Math.min(used, limit), max: limit, take: null };
}

export function canRecordAgain(state: TakesState): boolean {
  return state.used < state.max;
}

/** The take the screen talks about: the one being (or about to be) recorded, else the last one. */
export function takeNumber(state: TakesState): number {
  return state.phase === 'ready' ? Math.min(state.used + 1, state.max) : Math.max(state.used, 1);
}

export function takesReducer(state: TakesState, action: TakesAction): TakesState {
  switch (action.type) {
    case 'start':
      if (state.phase !== 'ready' || state.used >= state.max) return state;
      return { ...state, phase: 'recording', used: state.used + 1 };
    case 'stopped':
      if (state.phase !== 'recording') return state;
      return { ...state, phase: 'review', take: action.take };
    case 'recordAgain':
      if (state.phase !== 'review' || !canRecordAgain(state)) return state;
      return { ...state, phase: 'ready' };
    case 'timeUp':
      if (state.phase !== 'ready') return state;
      return { ...state, phase: state.take ? 'review' : 'timeUp' };
    case 'failed':
      // The recorder broke mid-take: give the take back, keep any earlier one.
      if (state.phase !== 'recording') return state;
      return { ...state, phase: state.take ? 'review' : 'ready', used: state.used - 1 };
  }
}
