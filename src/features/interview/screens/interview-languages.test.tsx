import 'fake-indexeddb/auto';

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { env } from '@/config/env';
import { renderRoute } from '@/testing/render-route';
import { server } from '@/testing/msw-server';

import { AUTONYMS, LOCALES } from '../i18n/locales';

const interviewUrl = `${env.apiUrl}/api/screenroom/interviews/:id`;

const textQuestion = (id: string) => ({ id, title: `Title ${id}`, description: `Description ${id}`, timeout: 90, canPreview: true, kind: 'text', takes: 1 });

function interview(overrides: Record<string, unknown> = {}) {
  return {
    candidateId: 'rec1',
    companyName: 'Globex',
    companyLogoUrl: '',
    privacyUrl: 'https://globex.example.com/privacy',
    jobTitle: 'Support engineer',
    welcomeMessage: '',
    consentedAt: '',
    questions: [textQuestion('q1'), textQuestion('q2')],
    answeredQuestionIds: [],
    language: 'en',
    candidateLanguage: '',
    retentionMonths: 6,
    ...overrides,
  };
}

type Calls = { languages: { key: string | null; body: unknown }[]; withdrawals: (string | null)[] };

/** The interview read, and the language and withdraw routes of the contract, recording what they were sent. */
function api(read: Record<string, unknown> | ((calls: Calls) => Record<string, unknown>) = {}) {
  const calls: Calls = { languages: [], withdrawals: [] };
  server.use(
    http.get(interviewUrl, ({ params }) => {
      if (params.id !== 'cand1') return HttpResponse.json({ status: 404, message: 'This interview link is not valid.', data: {} }, { status: 404 });
      return HttpResponse.json(typeof read === 'function' ? read(calls) : interview(read));
    }),
    http.post(`${interviewUrl}/language`, async ({ request }) => {
      calls.languages.push({ key: request.headers.get('X-Candidate-Key'), body: await request.json() });
      return new HttpResponse(null, { status: 204 });
    }),
    http.post(`${interviewUrl}/withdraw`, ({ request }) => {
      calls.withdrawals.push(request.headers.get('X-Candidate-Key'));
      return HttpResponse.json({ answers: 2, videos: 1 });
    }),
    http.post(`${interviewUrl}/consent`, () => HttpResponse.json({ consentedAt: '2026-11-24 10:00:00.000Z' })),
    http.post(`${interviewUrl}/questions/:question/open`, () => {
      const now = new Date().toISOString().replace('T', ' ');
      return HttpResponse.json({ openedAt: now, serverNow: now });
    }),
  );
  return calls;
}

const frame = () => screen.getByTestId('candidate-frame');

afterEach(() => {
  localStorage.clear();
  vi.restoreAllMocks();
});

describe("the candidate's language", () => {
  it("is the job's: the start screen in German, with lang on the frame and the page", async () => {
    api({ language: 'de' });
    renderRoute('/candidates/cand1');
    expect(await screen.findByRole('heading', { level: 1, name: 'Interview bei Globex' })).toBeInTheDocument();
    expect(screen.getByText(/^Es gibt 2 Fragen, insgesamt etwa 3 Minuten Antwortzeit\./)).toBeInTheDocument();
    expect(screen.getByText('Ihre Antworten sieht das Recruiting-Team von Globex.')).toBeInTheDocument();
    // consent says how long the company keeps them
    expect(screen.getByText(/^Globex bewahrt Ihre Antworten 6 Monate nach Schließung der Stelle/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Datenschutzerklärung von Globex lesen' })).toHaveAttribute('href', 'https://globex.example.com/privacy');
    expect(screen.getByRole('checkbox', { name: 'Ich stimme zu' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Interview starten' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Bewerbung zurückziehen und meine Antworten löschen' })).toBeInTheDocument();
    expect(frame()).toHaveAttribute('lang', 'de');
    expect(frame()).toHaveAttribute('dir', 'ltr');
    expect(document.documentElement).toHaveAttribute('lang', 'de');
    expect(screen.queryByText(/Interview at|Before you start|I agree/)).not.toBeInTheDocument();
  });

  it('is Arabic right to left: dir="rtl" on the frame and the page, Arabic words and plurals', async () => {
    api({ language: 'ar', retentionMonths: 2 });
    renderRoute('/candidates/cand1');
    expect(await screen.findByRole('heading', { level: 1, name: 'مقابلة لدى Globex' })).toBeInTheDocument();
    expect(frame()).toHaveAttribute('dir', 'rtl');
    expect(frame()).toHaveAttribute('lang', 'ar');
    expect(document.documentElement).toHaveAttribute('dir', 'rtl');
    // the dual, as Arabic says two questions and two months
    expect(screen.getByText(/^يوجد سؤالان،/)).toBeInTheDocument();
    expect(screen.getByText(/مدة شهرين بعد إغلاق الوظيفة/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'بدء المقابلة' })).toBeInTheDocument();
  });

  it('gives the page its own direction back when the candidate leaves the interview', async () => {
    api({ language: 'ar' });
    const view = renderRoute('/candidates/cand1');
    await screen.findByRole('heading', { level: 1, name: 'مقابلة لدى Globex' });
    const before = { lang: document.documentElement.getAttribute('lang'), dir: document.documentElement.getAttribute('dir') };
    expect(before).toEqual({ lang: 'ar', dir: 'rtl' });
    view.unmount();
    // index.html's own (none in this test document)
    expect(document.documentElement).not.toHaveAttribute('dir');
    expect(document.documentElement).not.toHaveAttribute('lang');
  });

  it("is the candidate's own choice over the job's, and the choice stored for this link over both", async () => {
    api({ language: 'de', candidateLanguage: 'fr' });
    const first = renderRoute('/candidates/cand1');
    expect(await screen.findByRole('heading', { level: 1, name: 'Entretien chez Globex' })).toBeInTheDocument();
    first.unmount();

    localStorage.setItem('screenroom.language.cand1', 'es');
    renderRoute('/candidates/cand1');
    expect(await screen.findByRole('heading', { level: 1, name: 'Entrevista en Globex' })).toBeInTheDocument();
  });

  it("says the intro card's own sentence first in the language: the timeout in seconds, then the kind", async () => {
    api({ language: 'pl', consentedAt: '2026-11-24 10:00:00.000Z' });
    renderRoute('/candidates/cand1/questions/q1');
    expect(await screen.findByText('Masz 90 sekund na odpowiedź')).toHaveAttribute('data-testid', 'answer-time');
    expect(screen.getByTestId('answer-kind')).toHaveTextContent('Odpowiedź wpiszesz na klawiaturze.');
    expect(screen.getByText('Pytanie 1 z 2')).toBeInTheDocument();
  });

  it('says when the company keeps answers until it deletes them', async () => {
    api({ retentionMonths: 0 });
    renderRoute('/candidates/cand1');
    expect(await screen.findByText('Your answers are kept until Globex deletes them.')).toBeInTheDocument();
  });

  it('speaks the browser\'s language on a link that opens nothing, or the one chosen for it', async () => {
    api();
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['nl-BE', 'en']);
    const first = renderRoute('/candidates/nobody');
    expect(await screen.findByRole('heading', { name: 'Deze interviewlink is niet geldig' })).toBeInTheDocument();
    expect(frame()).toHaveAttribute('lang', 'nl');
    first.unmount();

    localStorage.setItem('screenroom.language.nobody', 'it');
    renderRoute('/candidates/nobody');
    expect(await screen.findByRole('heading', { name: 'Questo link al colloquio non è valido' })).toBeInTheDocument();
  });
});

describe('the language switcher', () => {
  it('lists every language by its own name, with a label in the current language', async () => {
    api({ language: 'de' });
    renderRoute('/candidates/cand1');
    const select = await screen.findByRole('combobox', { name: 'Sprache' });
    const options = within(select).getAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual(LOCALES.map((locale) => AUTONYMS[locale]));
    expect(options.map((option) => option.getAttribute('lang'))).toEqual([...LOCALES]);
    expect(select).toHaveValue('de');
  });

  it('changes the screen in place, remembers the choice for the link, and tells the server', async () => {
    const calls = api();
    renderRoute('/candidates/cand1');
    await screen.findByRole('heading', { level: 1, name: 'Interview at Globex' });
    await userEvent.click(screen.getByRole('checkbox', { name: 'I agree' }));
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'ar');
    expect(await screen.findByRole('heading', { level: 1, name: 'مقابلة لدى Globex' })).toBeInTheDocument();
    expect(frame()).toHaveAttribute('dir', 'rtl');
    // what the candidate did on the screen stays: 'I agree' is still ticked
    expect(screen.getByRole('checkbox', { name: 'أوافق' })).toBeChecked();
    expect(screen.getByRole('button', { name: 'بدء المقابلة' })).toBeEnabled();
    expect(localStorage.getItem('screenroom.language.cand1')).toBe('ar');
    await waitFor(() => expect(calls.languages).toEqual([{ key: 'cand1', body: { language: 'ar' } }]));
  });

  it('keeps a typed answer when the language changes mid-question', async () => {
    api({ consentedAt: '2026-11-24 10:00:00.000Z' });
    renderRoute('/candidates/cand1/questions/q1');
    await userEvent.click(await screen.findByRole('button', { name: 'View question' }));
    const box = await screen.findByLabelText('Your answer');
    await userEvent.type(box, 'Mein Text');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'de');
    const same = await screen.findByLabelText('Ihre Antwort');
    expect(same).toBe(box);
    expect(same).toHaveValue('Mein Text');
    expect(screen.getByRole('button', { name: 'Antwort absenden' })).toBeInTheDocument();
  });
});

describe("the candidate's withdrawal", () => {
  it('is confirmed in a dialog that says what it deletes, then every route says they withdrew', async () => {
    let withdrawn = false;
    const calls = api(() => (withdrawn ? { withdrawnAt: '2026-11-24 10:00:00.000Z', language: 'de' } : interview({ language: 'de' })));
    const view = renderRoute('/candidates/cand1');
    await userEvent.click(await screen.findByRole('button', { name: 'Bewerbung zurückziehen und meine Antworten löschen' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Bewerbung zurückziehen und Ihre Antworten löschen?' });
    expect(dialog).toHaveTextContent('Ihre Antworten (Ihre Videos, deren Transkripte und Ihre schriftlichen Antworten)');
    expect(dialog).toHaveTextContent('Ihre Einladung mit Ihrer E-Mail-Adresse');
    expect(dialog).toHaveTextContent('Das lässt sich nicht rückgängig machen');
    // 'Cancel' in the candidate's language too
    expect(within(dialog).getByRole('button', { name: 'Abbrechen' })).toBeInTheDocument();
    expect(calls.withdrawals).toEqual([]);
    withdrawn = true;
    await userEvent.click(within(dialog).getByRole('button', { name: 'Zurückziehen und löschen' }));
    expect(await screen.findByRole('heading', { name: 'Sie haben Ihre Bewerbung zurückgezogen, und Ihre Antworten wurden gelöscht.' })).toBeInTheDocument();
    expect(calls.withdrawals).toEqual(['cand1']);
    await view.router.navigate('/candidates/cand1/questions/q1');
    expect(await screen.findByTestId('interview-withdrawn')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Frage ansehen' })).not.toBeInTheDocument();
  });

  it('shows a link the server reads as withdrawn ({ withdrawnAt, language }) as withdrawn on every route, in that language', async () => {
    api(() => ({ withdrawnAt: '2026-11-24 10:00:00.000Z', language: 'ar' }));
    for (const path of ['/candidates/cand1', '/candidates/cand1/questions/q1', '/candidates/cand1/finish', '/candidates/cand1/data']) {
      const view = renderRoute(path);
      expect(await screen.findByRole('heading', { name: 'انسحبت من هذه المقابلة وحُذفت إجاباتك.' })).toBeInTheDocument();
      expect(frame()).toHaveAttribute('dir', 'rtl');
      view.unmount();
    }
  });

  it('is offered on the thank-you screen too', async () => {
    api({ answeredQuestionIds: ['q1', 'q2'], consentedAt: '2026-11-24 10:00:00.000Z' });
    renderRoute('/candidates/cand1/finish');
    expect(await screen.findByRole('heading', { name: 'Thank you' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Withdraw and delete my answers' })).toBeInTheDocument();
  });
});

describe('the data-request page', () => {
  it('says what is kept, who sees it and for how long, and withdraws only after its confirmation', async () => {
    const calls = api({ answeredQuestionIds: ['q1'] });
    renderRoute('/candidates/cand1/data');
    expect(await screen.findByRole('heading', { level: 1, name: 'Your answers and your data' })).toBeInTheDocument();
    expect(screen.getByTestId('data-answered')).toHaveTextContent('You have sent 1 answer.');
    expect(screen.getByText('Your answers will be seen by the hiring team at Globex.')).toBeInTheDocument();
    expect(screen.getByText(/^Globex keeps your answers for 6 months/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: "Read Globex's privacy policy" })).toBeInTheDocument();
    // opening the page erases nothing
    expect(calls.withdrawals).toEqual([]);
    await userEvent.click(screen.getByRole('button', { name: 'Withdraw and delete my answers' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Withdraw and delete your answers?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(calls.withdrawals).toEqual([]);
  });

  it('stays open after the interview closed: the right to deletion outlives it', async () => {
    api({ questions: [], closed: { reason: 'deadline', at: '2026-11-20 17:00:00.000Z' } });
    const view = renderRoute('/candidates/cand1/data');
    expect(await screen.findByRole('heading', { level: 1, name: 'Your answers and your data' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Withdraw and delete my answers' })).toBeInTheDocument();
    await view.router.navigate('/candidates/cand1');
    expect(await screen.findByTestId('interview-closed')).toBeInTheDocument();
  });
});
