import { render } from '@testing-library/react';
import { useEffect } from 'react';
import { describe, expect, it } from 'vitest';

import { CandidateIntl } from './candidate-intl';
import { loadMessages } from './load-messages';

/** What a screen's own effect reads of the page as it mounts (sonner's toaster reads the page's direction so). */
function PageProbe({ seen }: { seen: { dir: string | null; lang: string | null }[] }) {
  useEffect(() => {
    seen.push({ dir: document.documentElement.getAttribute('dir'), lang: document.documentElement.getAttribute('lang') });
  }, [seen]);
  return null;
}

describe('CandidateIntl', () => {
  it("has the page in the language's direction before any screen inside runs its effects, and gives it back after", async () => {
    const messages = await loadMessages('ar');
    const seen: { dir: string | null; lang: string | null }[] = [];
    const view = render(
      <CandidateIntl catalog={{ locale: 'ar', messages }}>
        <PageProbe seen={seen} />
      </CandidateIntl>,
    );
    expect(seen).toEqual([{ dir: 'rtl', lang: 'ar' }]);
    view.unmount();
    expect(document.documentElement).not.toHaveAttribute('dir');
    expect(document.documentElement).not.toHaveAttribute('lang');
  });
});
