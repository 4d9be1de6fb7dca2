import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { queryClient } from '@/lib/query-client';
import type { DecisionMessagesResponse } from '@/lib/pocketbase-types';
import { server } from '@/testing/msw-server';

import { buildReview, openReview, rec, type reviewServer } from './review-test-server';

afterEach(() => {
  vi.restoreAllMocks();
  queryClient.clear();
});

const panel = () => screen.getByRole('region', { name: 'Decision message' });
const sends = (api: ReturnType<typeof reviewServer>) =>
  api.requests.filter((request) => request.method === 'POST' && request.path.endsWith('/decision-message')).map((request) => request.body);

const sentBefore = rec('decision_messages', {
  id: 'm1',
  candidate: 'k1',
  kind: 'reject',
  language: 'fr',
  subject: 'Votre candidature pour Support engineer chez Acme',
  body: 'Merci pour votre entretien.\n\nÀ bientôt.',
  sentAt: '2026-03-04 09:15:00.000Z',
  sentBy: 'u2',
}) as unknown as DecisionMessagesResponse;

describe('decision messages on the review', () => {
  it('offers nothing to send before the candidate is advanced or rejected, and sends nothing by deciding', async () => {
    const user = userEvent.setup();
    const api = await open({ decision: 'hold', decisionBy: 'u1', decisionAt: '2026-03-04 10:00:00.000Z' });
    expect(await within(panel()).findByText('No message sent yet.')).toBeInTheDocument();
    expect(within(panel()).getByText('Advance or reject the candidate to send them a message.')).toBeInTheDocument();
    expect(within(panel()).queryByRole('button')).toBeNull();
    await user.click(within(screen.getByRole('radiogroup', { name: 'Decision' })).getByRole('radio', { name: 'Advance' }));
    expect(await within(panel()).findByRole('button', { name: 'Send advance message' })).toBeInTheDocument();
    expect(sends(api)).toEqual([]);
  });

  it('previews the e-mail in its language before sending it, then lists it with when and by whom', async () => {
    const user = userEvent.setup();
    const api = await open({ decision: 'advance', decisionBy: 'u1', decisionAt: '2026-03-04 10:00:00.000Z' });
    await user.click(await within(panel()).findByRole('button', { name: 'Send advance message' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Send the advance message?' });
    const preview = await within(dialog).findByTestId('message-preview');
    expect(preview).toHaveTextContent('To: grace@example.com');
    expect(preview).toHaveTextContent('Language: Deutsch (Screenroom’s default text)');
    expect(within(preview).getByTestId('preview-subject')).toHaveTextContent('Betreff (advance)');
    expect(within(preview).getByTestId('preview-text')).toHaveAttribute('lang', 'de');
    expect(within(preview).getByTestId('preview-text').textContent).toBe('Hallo,\n\nText der Nachricht (advance).\n\nViele Grüße\nAcme');
    // nothing is sent by looking
    expect(sends(api)).toEqual([]);

    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    await vi.waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(sends(api)).toEqual([{ kind: 'advance' }]);
    expect(await screen.findByText('Message sent to grace@example.com')).toBeInTheDocument();
    const line = await within(panel()).findByTestId('sent-message-line');
    expect(line.textContent).toMatch(/^Advance message sent .+ by you$/);
    expect(within(panel()).getByText('Betreff (advance)')).toBeInTheDocument();
    // once a kind: the button goes
    expect(within(panel()).queryByRole('button', { name: 'Send advance message' })).toBeNull();
  });

  it("lists what was sent before, by a colleague, with the message's words, and offers the other kind after a change of mind", async () => {
    const user = userEvent.setup();
    await open({ decision: 'reject', decisionBy: 'u2', decisionAt: '2026-03-04 09:00:00.000Z' }, [sentBefore]);
    await vi.waitFor(() => expect(within(panel()).getByTestId('sent-message-line')).toHaveTextContent('Reject message sent Mar 4, 2026'));
    await vi.waitFor(() => expect(within(panel()).getByTestId('sent-message-line')).toHaveTextContent('by Maria Manager'));
    await user.click(within(panel()).getByText('Votre candidature pour Support engineer chez Acme'));
    expect(within(panel()).getByText(/Merci pour votre entretien\./)).toBeVisible();
    expect(within(panel()).queryByRole('button', { name: /^Send/ })).toBeNull();

    await user.click(within(screen.getByRole('radiogroup', { name: 'Decision' })).getByRole('radio', { name: 'Advance' }));
    expect(await within(panel()).findByRole('button', { name: 'Send advance message' })).toBeInTheDocument();
  });

  it("says why the server refuses, in the dialog, and offers no 'Send'", async () => {
    const user = userEvent.setup();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const api = await open({ decision: 'reject', decisionBy: 'u1', decisionAt: '2026-03-04 10:00:00.000Z' });
    server.use(
      http.post('*/api/screenroom/candidates/:id/decision-message/preview', () =>
        HttpResponse.json(
          {
            status: 400,
            message: 'This invitation was withdrawn, so the candidate gets no more e-mails about it.',
            data: { candidate: { code: 'validation_withdrawn', message: 'This invitation was withdrawn, so the candidate gets no more e-mails about it.' } },
          },
          { status: 400 },
        ),
      ),
    );
    await user.click(await within(panel()).findByRole('button', { name: 'Send reject message' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Send the reject message?' });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('This invitation was withdrawn, so the candidate gets no more e-mails about it.');
    expect(within(dialog).queryByRole('button', { name: 'Send' })).toBeNull();
    expect(sends(api)).toEqual([]);
  });
});

function open(candidate: NonNullable<Parameters<typeof buildReview>[0]>['candidate'] = {}, messages: DecisionMessagesResponse[] = []) {
  return openReview({ review: buildReview({ candidate }), messages });
}
