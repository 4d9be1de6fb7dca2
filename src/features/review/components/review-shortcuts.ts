import { useLayoutEffect, useRef } from 'react';

export type ReviewShortcutActions = {
  togglePlay: () => void;
  nextAnswer: () => void;
  previousAnswer: () => void;
  nextCandidate: () => void;
  previousCandidate: () => void;
  rate: (stars: number) => void;
  toggleHelp: () => void;
};

export type ShortcutHelp = { keys: readonly string[]; joiner?: 'or' | 'to'; action: string };

/** The shortcuts as the help popover lists them: keys ("Space or K", "1 to 5"), then what they do. */
export const REVIEW_SHORTCUTS: readonly ShortcutHelp[] = [
  { keys: ['Space', 'K'], joiner: 'or', action: 'Play or pause the current answer' },
  { keys: ['N'], action: 'Next answer' },
  { keys: ['P'], action: 'Previous answer' },
  { keys: [']'], action: 'Next candidate' },
  { keys: ['['], action: 'Previous candidate' },
  { keys: ['1', '5'], joiner: 'to', action: 'Rate the current answer 1 to 5 stars' },
  { keys: ['?'], action: 'Show or hide the keyboard shortcuts' },
];

/**
 * The same keys on the comparison of candidates, where the candidates are side by side: ] and [ move to the next or
 * previous candidate's answer to the same question.
 */
export const COMPARE_SHORTCUTS: readonly ShortcutHelp[] = REVIEW_SHORTCUTS.map((shortcut) =>
  shortcut.keys[0] === ']'
    ? { ...shortcut, action: "Next candidate's answer to the same question" }
    : shortcut.keys[0] === '['
      ? { ...shortcut, action: "Previous candidate's answer to the same question" }
      : shortcut,
);

/** Marks the help popover, the one dialog in which '?' still works (it closes it). */
export const SHORTCUTS_HELP_ATTRIBUTE = 'data-review-shortcuts-help';

const TEXT_INPUT_TYPES = new Set(['text', 'search', 'email', 'url', 'tel', 'password', 'number', 'date', 'datetime-local', 'month', 'time', 'week']);

/** Keys typed here are text: no shortcut takes them. */
function isTyping(target: Element): boolean {
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement) return TEXT_INPUT_TYPES.has(target.type);
  return target instanceof HTMLElement && target.isContentEditable;
}

/** Space means "press" here (a button, a radio, a link, the player's own controls): it is left to the control. */
function isControl(target: Element): boolean {
  return Boolean(
    target.closest(
      'button, a[href], input, select, textarea, video, audio, summary, [role="button"], [role="radio"], [role="checkbox"], [role="menuitem"], [role="tab"], [role="switch"], [role="option"], [role="slider"]',
    ),
  );
}

/**
 * The review's keyboard shortcuts (issue 15), listed in the help popover: Space or K play or pause the current
 * answer, N and P move to the next and previous answer, ] and [ to the next and previous candidate, 1-5 rate the
 * current answer, ? shows the help. None of them fires while the manager types (an input, a textarea, a select) or
 * holds Ctrl, Alt or Meta (the browser's own shortcuts), nor inside a dialog.
 */
export function useReviewShortcuts(actions: ReviewShortcutActions): void {
  const latest = useRef(actions);
  // before the browser paints (a layout effect), not a frame later: a key pressed as soon as the screen shows its
  // new neighbours acts on them
  useLayoutEffect(() => {
    latest.current = actions;
  });

  // Listening from the commit that shows the screen, not an effect after its paint: each candidate's review is a
  // new screen (key={candidateId}), and a key pressed as soon as it shows (a busy machine's effects come late) was
  // lost between the paint and the effect.
  useLayoutEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return;
      const target = event.target instanceof Element ? event.target : document.body;
      if (isTyping(target)) return;
      const act = latest.current;
      const key = event.key;
      // inside a dialog only the help's own '?' (which closes it) is a shortcut
      const dialog = target.closest('[role="dialog"], [role="alertdialog"]');
      if (dialog && !(key === '?' && dialog.hasAttribute(SHORTCUTS_HELP_ATTRIBUTE))) return;
      const run = (action: () => void) => {
        event.preventDefault();
        action();
      };
      switch (key) {
        case '?':
          return run(act.toggleHelp);
        case ' ':
          if (!isControl(target)) run(act.togglePlay);
          return;
        case 'k':
        case 'K':
          return run(act.togglePlay);
        case 'n':
        case 'N':
          return run(act.nextAnswer);
        case 'p':
        case 'P':
          return run(act.previousAnswer);
        case ']':
          return run(act.nextCandidate);
        case '[':
          return run(act.previousCandidate);
        case '1':
        case '2':
        case '3':
        case '4':
        case '5':
          return run(() => act.rate(Number(key)));
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);
}
