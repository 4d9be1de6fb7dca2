import 'fake-indexeddb/auto';

import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { env } from '@/config/env';
import { queryClient } from '@/lib/query-client';
import { FakeXhr } from '@/testing/fake-xhr';
import { clickWhenEnabled } from '@/testing/click';
import { renderRoute } from '@/testing/render-route';
import { server } from '@/testing/msw-server';

// Issue 17 points 5-8 on the candidate's screens: the intro card's words, the preparation's countdown and the
// automatic start, the time resumed from the server's first opening after a reload, unlimited time, the closed
// pages, and the coded refusals.

/** A MediaRecorder that records nothing until stopped (no take is finished in these tests). */
class FakeRecorder {
  static isTypeSupported(type: string) {
    return type.startsWith('video/webm');
  }
  state: 'inactive' | 'recording' = 'inactive';
  mimeType = 'video/webm;codecs=vp9,opus';
  ondataavailable: ((event: { data: Blob }) => void) | null = null;
  onstop: (() => void) | null = null;
  onerror: (() => void) | null = null;
  start() {
    this.state = 'recording';
  }
  stop() {
    this.state = 'inactive';
    this.onstop?.();
  }
}

beforeEach(() => {
  vi.stubGlobal('MediaRecorder', FakeRecorder);
  Object.defineProperty(navigator, 'mediaDevices', {
    configurable: true,
    value: { getUserMedia: vi.fn(() => Promise.resolve({ getTracks: () => [{ stop: vi.fn() }] })) },
  });
  URL.createObjectURL = vi.fn(() => 'blob:take');
  URL.revokeObjectURL = vi.fn();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

/** PocketBase's date text for `ms`. */
const dbTime = (ms: number) => new Date(ms).toISOString().replace('T', ' ');

type Question = Record<string, unknown> & { id: string };

function video(extra: Record<string, unknown> = {}): Question {
  return { id: 'q1', title: 'Introduce yourself', description: 'Tell us about you', timeout: 120, preparation: 30, untimed: false, openedAt: '', canPreview: true, kind: 'video', takes: 2, ...extra };
}

function text(extra: Record<string, unknown> = {}): Question {
  return { id: 'q1', title: 'Why us', description: 'In writing', timeout: 90, preparation: 0, untimed: false, openedAt: '', canPreview: true, kind: 'text', takes: 1, ...extra };
}

/**
 * The interview route and the open route. `serverAhead`: how far the server's clock is ahead of this device's (a
 * device with a wrong clock); `openedAgo`: for how long the question has been open on the server (a reload), or null
 * when it was never opened (the open route then opens it now).
 */
function interviewApi({
  questions,
  serverAhead = 0,
  openedAgo = null as number | null,
  closed = null as null | { reason: string; at: string },
  deadline = '',
}: {
  questions: Question[];
  serverAhead?: number;
  openedAgo?: number | null;
  closed?: null | { reason: string; at: string };
  deadline?: string;
}) {
  const opens: (string | null)[] = [];
  let firstOpened = openedAgo === null ? null : Date.now() + serverAhead - openedAgo;
  const state = { closed };
  server.use(
    http.get(`${env.apiUrl}/api/screenroom/interviews/:id`, ({ params }) =>
      HttpResponse.json({
        candidateId: params.id,
        companyName: 'Globex',
        companyLogoUrl: '',
        privacyUrl: '',
        jobTitle: 'Support engineer',
        welcomeMessage: '',
        consentedAt: '2026-01-01 10:00:00.000Z',
        serverNow: dbTime(Date.now() + serverAhead),
        deadline,
        closed: state.closed,
        questions: state.closed ? [] : questions.map((q) => ({ ...q, openedAt: firstOpened === null ? '' : dbTime(firstOpened) })),
        answeredQuestionIds: [],
      }),
    ),
    http.post(`${env.apiUrl}/api/screenroom/interviews/:id/questions/:question/open`, ({ request }) => {
      opens.push(request.headers.get('X-Candidate-Key'));
      const now = Date.now() + serverAhead;
      firstOpened ??= now;
      return HttpResponse.json({ openedAt: dbTime(firstOpened), serverNow: dbTime(now) });
    }),
    http.put(`${env.apiUrl}/api/screenroom/takes/:take/parts/:offset`, ({ params }) =>
      HttpResponse.json({ take: params.take, offset: Number(params.offset), size: 1 }),
    ),
    http.delete(`${env.apiUrl}/api/screenroom/takes/:take`, () => new HttpResponse(null, { status: 204 })),
    // after a refusal the queue asks whether an earlier attempt was stored after all: it was not
    http.get(`${env.apiUrl}/api/collections/answers/records/:id`, () =>
      HttpResponse.json({ status: 404, message: "The requested resource wasn't found.", data: {} }, { status: 404 }),
    ),
  );
  return { opens, state };
}

/** The seconds "Recording starts in 0:25" says. */
function secondsIn(element: HTMLElement): number {
  const match = /(\d+):(\d\d)/.exec(element.textContent ?? '');
  if (!match) throw new Error(`no time in "${element.textContent}"`);
  return Number(match[1]) * 60 + Number(match[2]);
}

describe('the intro card', () => {
  it('says a video answer, its preparation and its recording time', async () => {
    interviewApi({ questions: [video({ preparation: 30, timeout: 120 })] });
    renderRoute('/candidates/intro1/questions/q1');
    // the spec's sentence first, the timeout in seconds as it writes it; then the kind and the preparation
    expect(await screen.findByTestId('answer-time')).toHaveTextContent(/^You've 120 seconds to answer$/);
    expect(screen.getByTestId('answer-kind')).toHaveTextContent(
      /^You'll answer on video\. First you have 30 seconds to prepare, then recording starts by itself\.$/,
    );
  });

  it('says a typed answer and its time', async () => {
    interviewApi({ questions: [text({ timeout: 90 })] });
    renderRoute('/candidates/intro2/questions/q1');
    expect(await screen.findByTestId('answer-time')).toHaveTextContent(/^You've 90 seconds to answer$/);
    expect(screen.getByTestId('answer-kind')).toHaveTextContent(/^You'll type your answer\. The time runs from when you view the question\.$/);
  });

  it('says no limits as limits when the time is unlimited', async () => {
    interviewApi({ questions: [video({ untimed: true })] });
    renderRoute('/candidates/intro3/questions/q1');
    expect(await screen.findByText('There is no time limit: take the time you need.')).toBeInTheDocument();
    expect(
      screen.getByText("You'll answer on video. Take the time you need to prepare, then start recording when you are ready."),
    ).toBeInTheDocument();
    expect(screen.queryByText(/seconds|minutes/)).not.toBeInTheDocument();
  });
});

describe('the preparation', () => {
  it("'View question' opens the question on the server and counts the preparation down, with the candidate's key", async () => {
    const api = interviewApi({ questions: [video({ preparation: 30 })] });
    renderRoute('/candidates/prep1/questions/q1');
    await userEvent.click(await screen.findByRole('button', { name: 'View question' }));
    // the preparation's 30 s, less what a busy machine took to show it
    const preparation = await screen.findByText(/^Recording starts in \d+:\d\d$/);
    expect(secondsIn(preparation)).toBeLessThanOrEqual(30);
    expect(secondsIn(preparation)).toBeGreaterThan(10);
    expect(api.opens).toEqual(['prep1']);
    // enabled once the camera is ready, which may come after the button
    await waitFor(() => expect(screen.getByRole('button', { name: 'Start recording now' })).toBeEnabled());
    // no answer countdown yet: it starts with the recording
    expect(screen.queryByRole('timer', { name: /seconds left/ })).not.toBeInTheDocument();
    await waitFor(() => expect(secondsIn(preparation)).toBeLessThan(30));
  });

  it("'Start recording now' starts the take at once, and the answer countdown starts at its full time", async () => {
    interviewApi({ questions: [video({ preparation: 30, timeout: 120 })] });
    renderRoute('/candidates/prep2/questions/q1');
    await userEvent.click(await screen.findByRole('button', { name: 'View question' }));
    await clickWhenEnabled('Start recording now');
    expect(await screen.findByRole('button', { name: 'Stop Recording' })).toBeInTheDocument();
    // the full 2:00 (less what a busy machine took to show it), not what the preparation left
    const left = secondsIn(screen.getByRole('timer', { name: /seconds left/ }));
    expect(left).toBeLessThanOrEqual(120);
    expect(left).toBeGreaterThan(100);
    expect(screen.queryByText(/^Recording starts in/)).not.toBeInTheDocument();
  });

  it('starts the recording by itself when the preparation ends', async () => {
    interviewApi({ questions: [video({ preparation: 1 })] });
    renderRoute('/candidates/prep3/questions/q1');
    await userEvent.click(await screen.findByRole('button', { name: 'View question' }));
    expect(await screen.findByText(/^Recording starts in 0:0[01]$/)).toBeInTheDocument();
    // nobody presses anything
    expect(await screen.findByRole('button', { name: 'Stop Recording' })).toBeInTheDocument();
    expect(screen.getByText('● Recording')).toBeInTheDocument();
  });
});

describe('a reload', () => {
  /** The intro of a question opened before says its time kept running; 'View question' goes on with what is left. */
  async function reopen() {
    expect(
      await screen.findByText('You opened this question before. Its time kept running: you continue with the time that is left.'),
    ).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'View question' }));
  }

  it('resumes the preparation with what is left on the server clock, even on a device whose clock is an hour off', async () => {
    // opened 20 s ago on the server; this device's clock is an hour behind the server's
    const api = interviewApi({ questions: [video({ preparation: 30 })], openedAgo: 20_000, serverAhead: 3_600_000 });
    renderRoute('/candidates/reload1/questions/q1');
    await reopen();
    const preparation = await screen.findByText(/^Recording starts in/);
    expect(secondsIn(preparation)).toBeLessThanOrEqual(10);
    expect(secondsIn(preparation)).toBeGreaterThan(0);
    expect(api.opens).toEqual(['reload1']);
  });

  it('starts the recording at once when the preparation already ran out', async () => {
    interviewApi({ questions: [video({ preparation: 30 })], openedAgo: 45_000 });
    renderRoute('/candidates/reload2/questions/q1');
    await reopen();
    expect(await screen.findByRole('button', { name: 'Stop Recording' })).toBeInTheDocument();
    expect(screen.queryByText(/^Recording starts in/)).not.toBeInTheDocument();
  });

  it("resumes a text question's countdown with what is left", async () => {
    interviewApi({ questions: [text({ timeout: 90 })], openedAgo: 60_000 });
    renderRoute('/candidates/reload3/questions/q1');
    await reopen();
    const timer = await screen.findByRole('timer');
    expect(secondsIn(timer)).toBeLessThanOrEqual(30);
    expect(secondsIn(timer)).toBeGreaterThan(0);
  });

  it("shows the time-up screen when a text question's time ran out", async () => {
    interviewApi({ questions: [text({ timeout: 90 })], openedAgo: 120_000 });
    renderRoute('/candidates/reload4/questions/q1');
    await reopen();
    expect(await screen.findByText('Time is up')).toBeInTheDocument();
    expect(screen.queryByLabelText('Your answer')).not.toBeInTheDocument();
  });
});

describe('unlimited time', () => {
  it('shows no countdown and waits for the candidate to start recording', async () => {
    // a preparation of 0 would start the recording at once if the time were limited
    interviewApi({ questions: [video({ untimed: true, preparation: 0 })] });
    renderRoute('/candidates/untimed1/questions/q1');
    await userEvent.click(await screen.findByRole('button', { name: 'View question' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Start Recording' })).toBeEnabled());
    expect(screen.queryByRole('button', { name: 'Stop Recording' })).not.toBeInTheDocument();
    expect(screen.queryByRole('timer')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Start Recording' }));
    expect(await screen.findByRole('button', { name: 'Stop Recording' })).toBeInTheDocument();
    expect(screen.queryByRole('timer')).not.toBeInTheDocument();
  });

  it('shows no countdown on a text question, even long after it was opened', async () => {
    interviewApi({ questions: [text({ untimed: true, timeout: 30 })], openedAgo: 600_000 });
    renderRoute('/candidates/untimed2/questions/q1');
    await userEvent.click(await screen.findByRole('button', { name: 'View question' }));
    expect(await screen.findByLabelText('Your answer')).toBeEnabled();
    expect(screen.queryByRole('timer')).not.toBeInTheDocument();
    expect(screen.queryByText('Time is up')).not.toBeInTheDocument();
  });
});

describe('a closed interview', () => {
  const longDate = (at: string) => new Intl.DateTimeFormat(undefined, { dateStyle: 'long' }).format(Date.parse(at.replace(' ', 'T')));

  it('after its deadline, says on every candidate route when it closed', async () => {
    const at = '2026-11-20 17:00:00.000Z';
    interviewApi({ questions: [], closed: { reason: 'deadline', at } });
    for (const path of ['/candidates/closed1', '/candidates/closed1/questions/q1', '/candidates/closed1/check', '/candidates/closed1/finish']) {
      const view = renderRoute(path);
      expect(await screen.findByRole('heading', { name: `This interview closed on ${longDate(at)}` })).toBeInTheDocument();
      expect(screen.getByText(/Thank you for your interest in Globex/)).toBeInTheDocument();
      expect(screen.queryByRole('button')).not.toBeInTheDocument();
      view.unmount();
    }
  });

  it('once withdrawn, says so kindly, never with the word withdrawn', async () => {
    interviewApi({ questions: [], closed: { reason: 'withdrawn', at: '2026-11-20 17:00:00.000Z' } });
    renderRoute('/candidates/closed2');
    expect(await screen.findByRole('heading', { name: 'This interview is no longer open' })).toBeInTheDocument();
    expect(screen.getByText('Globex has closed this invitation. Thank you for your time.')).toBeInTheDocument();
    expect(document.body.textContent).not.toMatch(/withdrawn/i);
  });

  it("shows the deadline on the start screen while it is open, in the candidate's own time zone with its name", async () => {
    const deadline = '2026-12-01 17:00:00.000Z';
    interviewApi({ questions: [text()], deadline });
    renderRoute('/candidates/open1');
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const expected = new Intl.DateTimeFormat('en', {
      year: 'numeric',
      month: 'long',
      day: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      timeZoneName: 'long',
      timeZone: zone,
    }).format(Date.parse('2026-12-01T17:00:00.000Z'));
    const zoneName = new Intl.DateTimeFormat('en', { timeZoneName: 'long', timeZone: zone })
      .formatToParts(Date.parse('2026-12-01T17:00:00.000Z'))
      .find((part) => part.type === 'timeZoneName')?.value;
    expect(zoneName).toBeTruthy();
    expect(await screen.findByText(`Please finish by ${expected}.`)).toHaveTextContent(zoneName ?? '');
  });

  it("shows the closed page when the open route refuses because the deadline passed", async () => {
    const api = interviewApi({ questions: [video()] });
    server.use(
      http.post(`${env.apiUrl}/api/screenroom/interviews/:id/questions/:question/open`, () => {
        api.state.closed = { reason: 'deadline', at: '2026-11-20 17:00:00.000Z' };
        const message = 'This interview closed on 20 November 2026.';
        return HttpResponse.json({ status: 403, message, data: { interview: { code: 'deadline_passed', message } } }, { status: 403 });
      }),
    );
    renderRoute('/candidates/closed3/questions/q1');
    await userEvent.click(await screen.findByRole('button', { name: 'View question' }));
    expect(await screen.findByRole('heading', { name: /^This interview closed on / })).toBeInTheDocument();
  });
});

/**
 * The upload's XMLHttpRequest, answered by the test (jsdom's FormData cannot be read back by MSW in Node): the answers
 * route refuses with `reply`'s code, and calls `onSend` first.
 */
class RefusingUpload extends FakeXhr {
  static sent: string[] = [];
  static code = 'time_over';
  static message = '';
  static onSend: () => void = () => undefined;
  override open(method: string, url: string) {
    RefusingUpload.sent.push(`${method} ${url}`);
  }
  send() {
    RefusingUpload.onSend();
    setTimeout(() => {
      const { code, message } = RefusingUpload;
      this.status = 403;
      this.response = { status: 403, message, data: { interview: { code, message } } };
      this.onload?.();
    }, 0);
  }
}

describe('coded refusals of an answer', () => {
  beforeEach(() => {
    RefusingUpload.sent = [];
    RefusingUpload.onSend = () => undefined;
    vi.stubGlobal('XMLHttpRequest', RefusingUpload);
  });

  it('a text answer after its time: final, kept on the device, said plainly', async () => {
    interviewApi({ questions: [text()] });
    RefusingUpload.code = 'time_over';
    RefusingUpload.message = 'The time to answer this question is over.';
    renderRoute('/candidates/refused1/questions/q1', { queryClient });
    await userEvent.click(await screen.findByRole('button', { name: 'View question' }));
    await userEvent.type(await screen.findByLabelText('Your answer'), 'My answer');
    await userEvent.click(await screen.findByRole('button', { name: 'Submit answer' }));
    const status = await screen.findByRole('status', { name: 'Answer uploads' });
    await waitFor(() =>
      expect(status).toHaveTextContent(
        'Your answer could not be uploaded. The time to answer this question was over when it arrived. It is kept on this device.',
      ),
    );
    // no automatic retry of a final refusal
    expect(RefusingUpload.sent).toEqual([`POST ${env.apiUrl}/api/screenroom/answers`]);
    expect(document.body.textContent).not.toContain('The time to answer this question is over.');
  });

  it('an answer refused because the interview closed leads to the closed page, and stays on the device', async () => {
    const api = interviewApi({ questions: [text()] });
    RefusingUpload.code = 'withdrawn';
    RefusingUpload.message = 'This invitation was withdrawn.';
    RefusingUpload.onSend = () => {
      api.state.closed = { reason: 'withdrawn', at: '2026-11-24 12:00:00.000Z' };
    };
    renderRoute('/candidates/refused2/questions/q1', { queryClient });
    await userEvent.click(await screen.findByRole('button', { name: 'View question' }));
    await userEvent.type(await screen.findByLabelText('Your answer'), 'My answer');
    await userEvent.click(await screen.findByRole('button', { name: 'Submit answer' }));
    expect(await screen.findByRole('heading', { name: 'This interview is no longer open' })).toBeInTheDocument();
    expect(await screen.findByText(/It is kept on this device\./)).toBeInTheDocument();
    expect(RefusingUpload.sent).toEqual([`POST ${env.apiUrl}/api/screenroom/answers`]);
  });
});
