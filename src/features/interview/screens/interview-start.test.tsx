import 'fake-indexeddb/auto';

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { env } from '@/config/env';
import { renderRoute } from '@/testing/render-route';
import { server } from '@/testing/msw-server';

import { interviewQueries } from '../api/interview-get';
import { englishIntl } from '../i18n/testing';

import { aboutMinutes } from './interview-start';

const question = (id: string, timeout: number, kind: 'video' | 'text' = 'text') => ({
  id,
  title: `Title ${id}`,
  description: '',
  timeout,
  canPreview: true,
  kind,
  takes: 1,
});

/** The interview route, and the consent route recording its calls. */
function api(overrides: Record<string, unknown> = {}) {
  const consents: (string | null)[] = [];
  server.use(
    http.get(`${env.apiUrl}/api/screenroom/interviews/:id`, () =>
      HttpResponse.json({
        candidateId: 'cand1',
        companyName: 'Globex',
        companyLogoUrl: '/api/files/companies/c1/logo_globex.png',
        privacyUrl: '',
        jobTitle: 'Support engineer',
        welcomeMessage: '',
        consentedAt: '',
        // 120 + 200 + 200 s = 520 s: about 9 minutes
        questions: [question('q1', 120), question('q2', 200), question('q3', 200)],
        answeredQuestionIds: [],
        ...overrides,
      }),
    ),
    http.post(`${env.apiUrl}/api/screenroom/interviews/:id/consent`, ({ request }) => {
      consents.push(request.headers.get('X-Candidate-Key'));
      return HttpResponse.json({ consentedAt: '2026-11-24 10:00:00.000Z' });
    }),
  );
  return { consents };
}

describe('the interview start screen', () => {
  it("heads every screen with the company's logo, name and the job title, not the product's", async () => {
    api();
    renderRoute('/candidates/cand1');
    const brand = await screen.findByTestId('interview-brand');
    expect(within(brand).getByText('Globex')).toBeInTheDocument();
    expect(within(brand).getByText('Support engineer')).toBeInTheDocument();
    expect(brand.querySelector('img')).toHaveAttribute('src', `${env.apiUrl}/api/files/companies/c1/logo_globex.png`);
    expect(screen.queryByText('Screenroom')).not.toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Interview at Globex' })).toBeInTheDocument();
  });

  it('says how many questions and about how long the answers take in all', async () => {
    api();
    renderRoute('/candidates/cand1');
    expect(await screen.findByText(/There are 3 questions, about 9 minutes of answers in all\./)).toBeInTheDocument();
  });

  it('rounds the total up to whole minutes, in plain words', () => {
    expect(aboutMinutes(englishIntl, Math.ceil(520 / 60))).toBe('about 9 minutes');
    expect(aboutMinutes(englishIntl, 1)).toBe('about 1 minute');
    expect(aboutMinutes(englishIntl, 0)).toBe('about 1 minute');
  });

  it('shows the welcome message as plain text with its line breaks, never as HTML', async () => {
    api({ welcomeMessage: 'Hello!\nTake your time.\n<b>not bold</b>' });
    renderRoute('/candidates/cand1');
    const welcome = await screen.findByTestId('welcome-message');
    expect(welcome.textContent).toBe('Hello!\nTake your time.\n<b>not bold</b>');
    expect(welcome.querySelector('b')).toBeNull();
    expect(welcome).toHaveStyle({ whiteSpace: 'pre-wrap' });
  });

  it('shows no welcome message when the job has none', async () => {
    api();
    renderRoute('/candidates/cand1');
    await screen.findByRole('heading', { name: 'Interview at Globex' });
    expect(screen.queryByTestId('welcome-message')).not.toBeInTheDocument();
  });

  it("says who sees the answers, and links the company's privacy policy in a new tab when it has one", async () => {
    api({ privacyUrl: 'https://globex.example.com/privacy' });
    renderRoute('/candidates/cand1');
    expect(await screen.findByText('Your answers will be seen by the hiring team at Globex.')).toBeInTheDocument();
    const link = screen.getByRole('link', { name: "Read Globex's privacy policy" });
    expect(link).toHaveAttribute('href', 'https://globex.example.com/privacy');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link.getAttribute('rel')).toContain('noopener');
  });

  it('has no privacy link when the company set none', async () => {
    api();
    renderRoute('/candidates/cand1');
    await screen.findByText('Your answers will be seen by the hiring team at Globex.');
    expect(screen.queryByRole('link', { name: /privacy policy/ })).not.toBeInTheDocument();
  });

  it("enables 'Start Interview' only once 'I agree' is ticked, and stores the consent before going on", async () => {
    const { consents } = api();
    const view = renderRoute('/candidates/cand1');
    const start = await screen.findByRole('button', { name: 'Start Interview' });
    const agree = screen.getByRole('checkbox', { name: 'I agree' });
    expect(agree).not.toBeChecked();
    expect(start).toBeDisabled();
    await userEvent.click(agree);
    expect(start).toBeEnabled();
    await userEvent.click(agree);
    expect(start).toBeDisabled();
    expect(consents).toHaveLength(0);
    await userEvent.click(agree);
    await userEvent.click(start);
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/candidates/cand1/questions/q1'));
    expect(consents).toEqual(['cand1']);
  });

  it('goes on to the first question even when a read of the interview from before the consent arrives after it', async () => {
    // the screens read the interview again in the background (on mount, on focus): one such read, answered by the
    // server before the consent was stored, reaches the page after the consent did
    const { consents } = api();
    let releaseStale = () => {};
    const staleGate = new Promise<void>((resolve) => (releaseStale = resolve));
    let staleAnswered = false;
    // 'armed': the next read is the stale one; 'sent': it reached the server
    let stale: 'idle' | 'armed' | 'sent' = 'idle';
    let consented = false;
    const interview = (consentedAt: string) => ({
      candidateId: 'cand1',
      companyName: 'Globex',
      companyLogoUrl: '',
      privacyUrl: '',
      jobTitle: 'Support engineer',
      welcomeMessage: '',
      consentedAt,
      questions: [question('q1', 120)],
      answeredQuestionIds: [],
    });
    server.use(
      http.get(`${env.apiUrl}/api/screenroom/interviews/:id`, async () => {
        if (stale === 'armed') {
          stale = 'sent';
          await staleGate;
          staleAnswered = true;
          return HttpResponse.json(interview(''));
        }
        return HttpResponse.json(interview(consented ? '2026-11-24 10:00:00.000Z' : ''));
      }),
      http.post(`${env.apiUrl}/api/screenroom/interviews/:id/consent`, () => {
        consents.push('cand1');
        consented = true;
        // the stale read is answered just after the consent
        setTimeout(releaseStale, 20);
        return HttpResponse.json({ consentedAt: '2026-11-24 10:00:00.000Z' });
      }),
    );
    const view = renderRoute('/candidates/cand1');
    const start = await screen.findByRole('button', { name: 'Start Interview' });
    await userEvent.click(screen.getByRole('checkbox', { name: 'I agree' }));
    stale = 'armed';
    void view.queryClient.refetchQueries({ queryKey: interviewQueries.detail('cand1').queryKey });
    await waitFor(() => expect(stale).toBe('sent'));
    await userEvent.click(start);
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/candidates/cand1/questions/q1'));
    await waitFor(() => expect(staleAnswered).toBe(true));
    // what the stale read could do it does within a few ticks: here, send the candidate back to the start page
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(view.router.state.location.pathname).toBe('/candidates/cand1/questions/q1');
    expect(await screen.findByRole('button', { name: 'View question' })).toBeInTheDocument();
    expect(consents).toEqual(['cand1']);
  });

  it('sends a candidate who opens a question before agreeing back to the start page', async () => {
    api();
    const view = renderRoute('/candidates/cand1/questions/q1');
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/candidates/cand1'));
    expect(await screen.findByRole('checkbox', { name: 'I agree' })).toBeInTheDocument();
  });
});
