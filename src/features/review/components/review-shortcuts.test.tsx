import { render } from '@testing-library/react';
import { useLayoutEffect } from 'react';
import { describe, expect, it, vi } from 'vitest';

import { useReviewShortcuts, type ReviewShortcutActions } from './review-shortcuts';

const actions = (): ReviewShortcutActions => ({
  togglePlay: vi.fn(),
  nextAnswer: vi.fn(),
  previousAnswer: vi.fn(),
  nextCandidate: vi.fn(),
  previousCandidate: vi.fn(),
  rate: vi.fn(),
  toggleHelp: vi.fn(),
});

function Shortcuts({ act }: { act: ReviewShortcutActions }) {
  useReviewShortcuts(act);
  return null;
}

/** Presses a key in its own layout effect: in the commit that shows the screen, before any paint or effect. */
function PressOnCommit({ keyName }: { keyName: string }) {
  useLayoutEffect(() => {
    document.body.dispatchEvent(new KeyboardEvent('keydown', { key: keyName, bubbles: true, cancelable: true }));
  }, [keyName]);
  return null;
}

describe('useReviewShortcuts', () => {
  it('takes a key pressed as soon as the screen shows (a new candidate is a new screen)', () => {
    const act = actions();
    render(
      <>
        <Shortcuts act={act} />
        <PressOnCommit keyName="?" />
      </>,
    );
    expect(act.toggleHelp).toHaveBeenCalledTimes(1);
  });

  it('stops listening when the screen goes', () => {
    const act = actions();
    const { unmount } = render(<Shortcuts act={act} />);
    unmount();
    document.body.dispatchEvent(new KeyboardEvent('keydown', { key: ']', bubbles: true }));
    expect(act.nextCandidate).not.toHaveBeenCalled();
  });
});
