import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';

/**
 * Which answer of the review is the current one (the one the keyboard shortcuts play, pause and rate), and the
 * answers' players and cards, so the screen can reach them. An answer becomes current when the manager plays its
 * video, works inside its card, or moves to it with the keyboard; the first answer is current at the start.
 */
export type ReviewPlayer = {
  currentAnswerId: string | null;
  setCurrentAnswer: (answerId: string) => void;
  /** Each answer card registers itself (null when it unmounts), so moving to it can focus and show it. */
  registerCard: (answerId: string, card: HTMLElement | null) => void;
  /** Each video answer registers its player. */
  registerVideo: (answerId: string, video: HTMLVideoElement | null) => void;
  /** A player started: it becomes the current answer, and any other playing answer pauses. */
  playing: (answerId: string) => void;
  /** Plays or pauses the current answer's video (nothing for a text answer). */
  togglePlay: () => void;
  /** Moves to the next (1) or previous (-1) answer, focusing its card. */
  moveAnswer: (delta: 1 | -1) => void;
  /** Moves to that answer, focusing its card (the comparison's move to another candidate's answer). */
  moveTo: (answerId: string) => void;
  /**
   * Opens the review at an answer (a search hit, issue 18): it becomes current, is focused and scrolled to, and its
   * video is set to start at `seconds` (once its player exists, if it does not yet).
   */
  land: (answerId: string, seconds: number | null) => void;
};

const ReviewPlayerContext = createContext<ReviewPlayer | null>(null);

export function useReviewPlayerState(answerIds: readonly string[]): ReviewPlayer {
  const [chosen, setChosen] = useState<string | null>(null);
  const cards = useRef(new Map<string, HTMLElement>());
  const videos = useRef(new Map<string, HTMLVideoElement>());
  const currentAnswerId = chosen !== null && answerIds.includes(chosen) ? chosen : (answerIds[0] ?? null);

  const register = <T,>(map: Map<string, T>, answerId: string, node: T | null) => {
    if (node) map.set(answerId, node);
    else map.delete(answerId);
  };
  const registerCard = useCallback((answerId: string, card: HTMLElement | null) => register(cards.current, answerId, card), []);
  /** A landing's start time for a player not there yet. */
  const pendingStart = useRef<{ answerId: string; seconds: number } | null>(null);
  const registerVideo = useCallback((answerId: string, video: HTMLVideoElement | null) => {
    register(videos.current, answerId, video);
    if (video && pendingStart.current?.answerId === answerId) {
      // before its metadata, the browser keeps it as the position to start at
      video.currentTime = pendingStart.current.seconds;
      pendingStart.current = null;
    }
  }, []);

  // The answer whose play the K shortcut started: it was current then. Its play event comes later (a task of the
  // browser's, which may run after keys pressed meanwhile): by then the manager may have moved on, and it must not
  // make that answer current again.
  const shortcutPlay = useRef<string | null>(null);
  const playing = useCallback((answerId: string) => {
    if (shortcutPlay.current === answerId) shortcutPlay.current = null;
    // a play the manager started on the player itself makes its answer current
    else setChosen(answerId);
    for (const [other, video] of videos.current) if (other !== answerId && !video.paused) video.pause();
  }, []);

  const togglePlay = useCallback(() => {
    const video = currentAnswerId ? videos.current.get(currentAnswerId) : undefined;
    if (!video) return;
    if (video.paused || video.ended) {
      shortcutPlay.current = currentAnswerId;
      void video.play().catch(() => undefined);
    } else video.pause();
  }, [currentAnswerId]);

  const moveTo = useCallback((answerId: string) => {
    setChosen(answerId);
    const card = cards.current.get(answerId);
    // focus announces it to screen readers; the scroll is a smooth one
    card?.focus({ preventScroll: true });
    card?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' });
  }, []);

  const moveAnswer = useCallback(
    (delta: 1 | -1) => {
      if (!currentAnswerId) return;
      const next = answerIds[answerIds.indexOf(currentAnswerId) + delta];
      if (next) moveTo(next);
    },
    [answerIds, currentAnswerId, moveTo],
  );

  const land = useCallback((answerId: string, seconds: number | null) => {
    setChosen(answerId);
    const card = cards.current.get(answerId);
    card?.focus({ preventScroll: true });
    card?.scrollIntoView?.({ block: 'start' });
    if (seconds === null) return;
    const video = videos.current.get(answerId);
    if (video) video.currentTime = seconds;
    else pendingStart.current = { answerId, seconds };
  }, []);

  return useMemo(
    () => ({ currentAnswerId, setCurrentAnswer: setChosen, registerCard, registerVideo, playing, togglePlay, moveAnswer, moveTo, land }),
    [currentAnswerId, registerCard, registerVideo, playing, togglePlay, moveAnswer, moveTo, land],
  );
}

export function ReviewPlayerProvider({ player, children }: { player: ReviewPlayer; children: ReactNode }) {
  return <ReviewPlayerContext.Provider value={player}>{children}</ReviewPlayerContext.Provider>;
}

export function useReviewPlayer(): ReviewPlayer {
  const player = useContext(ReviewPlayerContext);
  if (!player) throw new Error('useReviewPlayer() must be used inside <ReviewPlayerProvider>.');
  return player;
}
