import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { pb } from '@/lib/pocketbase';
import { server } from '@/testing/msw-server';
import { renderRoute } from '@/testing/render-route';
import { signInAs } from '@/testing/session';

import { apiUrl, type SharedReview, type SharedVideoAnswer } from '../api/get-shared-review';

const TOKEN = 'Ab3'.repeat(14) + 'Z';
const VIDEO_URL = `/api/screenroom/shared/${TOKEN}/videos/va1`;

function sharedReview(overrides: Partial<SharedReview> = {}): SharedReview {
  return {
    companyName: 'Acme',
    companyLogoUrl: '/api/files/companies/c1/logo_acme.png?thumb=100x100',
    jobTitle: 'Support engineer',
    candidateEmail: 'grace@example.com',
    includeFeedback: false,
    questions: [
      {
        title: 'Introduce yourself',
        kind: 'video',
        answer: {
          kind: 'video',
          id: 'va1',
          url: VIDEO_URL,
          mimeType: 'video/webm',
          durationSeconds: 7.4,
          transcriptStatus: 'done',
          transcript: 'Hello there I am Grace',
          transcriptSegments: [
            { start: 0, end: 2.5, text: 'Hello there' },
            { start: 2.5, end: 7.4, text: 'I am Grace' },
          ],
          captionsUrl: `${VIDEO_URL}/captions.vtt`,
          transcriptUrl: `${VIDEO_URL}/transcript.txt`,
          language: 'de',
        },
      },
      { title: 'Why us?', kind: 'text', answer: { kind: 'text', content: 'Because I like people.' } },
      { title: 'Anything else?', kind: 'text', answer: null },
    ],
    ...overrides,
  };
}

let requests: Request[] = [];
let play: ReturnType<typeof vi.fn>;

const VTT = 'WEBVTT\n\n1\n00:00:00.000 --> 00:00:02.500\nHello there\n\n2\n00:00:02.500 --> 00:00:07.400\nI am Grace\n';

function answer(body: unknown, status = 200) {
  server.use(
    http.get(apiUrl('/api/screenroom/shared/:token/videos/:id/captions.vtt'), ({ request }) => {
      requests.push(request.clone());
      return new HttpResponse(VTT, { headers: { 'Content-Type': 'text/vtt; charset=utf-8' } });
    }),
    http.get(apiUrl('/api/screenroom/shared/:token'), ({ request, params }) => {
      requests.push(request.clone());
      if (params.token !== TOKEN) return HttpResponse.json({ status: 404, message: 'This link is not valid.', data: {} }, { status: 404 });
      return HttpResponse.json(body as Record<string, unknown>, { status });
    }),
  );
}

beforeEach(() => {
  requests = [];
  play = vi.fn().mockResolvedValue(undefined);
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(play);
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the shared review page', () => {
  it("says, where an answer's transcript would be, that its language needs the Whisper-compatible endpoint", async () => {
    const review = sharedReview();
    const [first, ...rest] = review.questions;
    answer({
      ...review,
      questions: [
        {
          ...first!,
          // the server names no captions or transcript file for it
          answer: { ...(first!.answer as SharedVideoAnswer), transcriptStatus: 'language_unsupported', transcript: '', transcriptSegments: null, captionsUrl: undefined, transcriptUrl: undefined },
        },
        ...rest,
      ],
    });
    renderRoute(`/shared/${TOKEN}`);
    const video = await screen.findByRole('region', { name: '1. Introduce yourself' });
    expect(within(video).getByTestId('transcript')).toHaveTextContent(/^Transcripts in this language need the Whisper-compatible endpoint$/);
    // no captions, and why; nothing to download
    expect(within(video).getByTestId('no-captions')).toHaveTextContent('No captions: there is no transcript in this language.');
    expect(within(video).getByLabelText('Answer video').querySelector('track')).toBeNull();
    expect(within(video).queryByRole('checkbox', { name: 'Captions' })).not.toBeInTheDocument();
    expect(within(video).queryByRole('link', { name: /Download/ })).not.toBeInTheDocument();
    expect(requests.map((r) => new URL(r.url).pathname)).toEqual([`/api/screenroom/shared/${TOKEN}`]);
    expect(within(video).queryByRole('list', { name: 'Transcript segments' })).not.toBeInTheDocument();
  });

  it('shows the company, the job, the candidate and every answer, and no feedback the link leaves out', async () => {
    answer(sharedReview());
    renderRoute(`/shared/${TOKEN}`);

    expect(await screen.findByRole('heading', { level: 1, name: 'grace@example.com' })).toBeInTheDocument();
    expect(screen.getByText('Acme')).toBeInTheDocument();
    expect(screen.getByText('Support engineer')).toBeInTheDocument();
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual(['1. Introduce yourself', '2. Why us?', '3. Anything else?']);

    const video = screen.getByRole('region', { name: '1. Introduce yourself' });
    expect(within(video).getByLabelText<HTMLVideoElement>('Answer video').src).toBe(apiUrl(VIDEO_URL));
    expect(within(video).getByText('Duration 0:07')).toBeInTheDocument();
    expect(within(video).getByRole('button', { name: '0:00 Hello there' })).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: '2. Why us?' })).getByText('Because I like people.')).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: '3. Anything else?' })).getByText('No answer')).toBeInTheDocument();

    expect(screen.queryByText('Ratings')).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Comments' })).not.toBeInTheDocument();
    // no app shell, no sign-in
    expect(screen.queryByRole('link', { name: /sign in/i })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /sign in/i })).not.toBeInTheDocument();
  });

  it("shows the answer's captions by default through the link, with a toggle, and the transcript's downloads", async () => {
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:shared-captions');
    answer(sharedReview());
    renderRoute(`/shared/${TOKEN}`);
    const video = await screen.findByRole('region', { name: '1. Introduce yourself' });
    const player = within(video).getByLabelText<HTMLVideoElement>('Answer video');
    const track = await waitFor(() => {
      const found = player.querySelector('track');
      expect(found).not.toBeNull();
      return found!;
    });
    expect(track).toHaveAttribute('src', 'blob:shared-captions');
    expect(track).toHaveAttribute('srclang', 'de');
    expect(track).toHaveAttribute('kind', 'captions');
    expect(track).toHaveAttribute('default');
    const captionsRequest = requests.find((r) => r.url.endsWith('/captions.vtt'))!;
    expect(captionsRequest.url).toBe(apiUrl(`${VIDEO_URL}/captions.vtt`));
    expect(captionsRequest.headers.get('authorization')).toBeNull();

    const toggle = within(video).getByRole('checkbox', { name: 'Captions' });
    expect(toggle).toBeChecked();
    fireEvent.click(toggle);
    expect(toggle).not.toBeChecked();
    expect(localStorage.getItem('screenroom.captions')).toBe('off');
    expect(player.querySelector('track')).not.toHaveAttribute('default');

    expect(within(video).getByRole('link', { name: 'Download transcript (text)' })).toHaveAttribute('href', `${apiUrl(`${VIDEO_URL}/transcript.txt`)}?download=1`);
    expect(within(video).getByRole('link', { name: 'Download captions (WebVTT)' })).toHaveAttribute('href', `${apiUrl(`${VIDEO_URL}/captions.vtt`)}?download=1`);
    expect(within(video).queryByTestId('no-captions')).not.toBeInTheDocument();
    localStorage.removeItem('screenroom.captions');
  });

  it('sends no session, even when someone is signed in on this browser, and leaves the stored one as it was', async () => {
    signInAs({ primaryCompany: 'c1' });
    const stored = localStorage.getItem('pocketbase_auth');
    answer(sharedReview());
    renderRoute(`/shared/${TOKEN}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'grace@example.com' })).toBeInTheDocument();
    // the page's read and its captions'
    await waitFor(() => expect(requests).toHaveLength(2));
    for (const request of requests) expect(request.headers.get('authorization')).toBeNull();
    expect(localStorage.getItem('pocketbase_auth')).toBe(stored);
    expect(pb.authStore.isValid).toBe(true);
  });

  it('plays the video from a transcript segment when it is clicked, and marks the segment being played', async () => {
    answer(sharedReview());
    renderRoute(`/shared/${TOKEN}`);
    const second = await screen.findByRole('button', { name: '0:02 I am Grace' });
    const player = screen.getByLabelText<HTMLVideoElement>('Answer video');

    fireEvent.click(second);
    expect(player.currentTime).toBe(2.5);
    expect(play).toHaveBeenCalled();
    expect(second).toHaveAttribute('aria-current', 'time');
    expect(screen.getByRole('button', { name: '0:00 Hello there' })).not.toHaveAttribute('aria-current');

    // the player moves on by itself: the mark follows
    player.currentTime = 1;
    fireEvent.timeUpdate(player);
    expect(screen.getByRole('button', { name: '0:00 Hello there' })).toHaveAttribute('aria-current', 'time');
    expect(second).not.toHaveAttribute('aria-current');
  });

  it('shows the plain transcript of an answer transcribed before segments existed', async () => {
    const review = sharedReview();
    const video = review.questions[0]!.answer as Extract<SharedReview['questions'][number]['answer'], { kind: 'video' }>;
    review.questions[0]!.answer = { ...video, transcriptSegments: null };
    answer(review);
    renderRoute(`/shared/${TOKEN}`);
    expect(await screen.findByText('Hello there I am Grace')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Hello there/ })).not.toBeInTheDocument();
  });

  it('shows the ratings and comments when the link includes them', async () => {
    const review = sharedReview({
      includeFeedback: true,
      comments: [
        { authorName: 'Ada Lovelace', created: '2026-03-04 10:20:30.000Z', text: 'Strong communicator.' },
        { authorName: '', created: '2026-03-05 09:00:00.000Z', text: 'Agreed.' },
      ],
    });
    const [videoQuestion, textQuestion] = review.questions;
    videoQuestion!.answer!.ratings = {
      average: 4.5,
      count: 2,
      byManager: [
        { managerName: 'Ada Lovelace', stars: 4 },
        { managerName: 'Carla Colleague', stars: 5 },
      ],
    };
    textQuestion!.answer!.ratings = { average: null, count: 0, byManager: [] };
    answer(review);
    renderRoute(`/shared/${TOKEN}`);

    const video = await screen.findByRole('region', { name: '1. Introduce yourself' });
    const ratings = within(video).getByTestId('answer-ratings');
    expect(ratings).toHaveTextContent('Average 4.5 out of 5, 2 ratings');
    expect(ratings).toHaveTextContent('Ada Lovelace: ★★★★☆ 4 stars');
    expect(ratings).toHaveTextContent('Carla Colleague: ★★★★★ 5 stars');
    expect(within(screen.getByRole('region', { name: '2. Why us?' })).getByText('Not rated yet')).toBeInTheDocument();

    const comments = screen.getByRole('region', { name: 'Comments' });
    const first = within(comments).getByRole('article', { name: 'Comment by Ada Lovelace' });
    expect(first).toHaveTextContent('Strong communicator.');
    expect(first).toHaveTextContent('Mar 4, 2026');
    expect(within(comments).getByRole('article', { name: 'Comment by a former manager' })).toHaveTextContent('Agreed.');
  });

  it.each([
    ['not valid', 404, 'This link is not valid.'],
    ['expired', 410, 'This link has expired.'],
    ['revoked', 410, 'This link was revoked.'],
  ])('shows a clear page for a link that is %s', async (_what, status, message) => {
    answer({ status, message, data: {} }, status);
    renderRoute(`/shared/${TOKEN}`);
    expect(await screen.findByRole('heading', { level: 1, name: message })).toBeInTheDocument();
    expect(screen.getByText(/ask the person who shared it/i)).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows a malformed token as not valid', async () => {
    answer(sharedReview());
    renderRoute('/shared/not-a-token');
    expect(await screen.findByRole('heading', { level: 1, name: 'This link is not valid.' })).toBeInTheDocument();
  });

  it("says something went wrong, in the product's words, when the server fails", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    answer({ status: 500, message: 'database is locked', data: {} }, 500);
    renderRoute(`/shared/${TOKEN}`);
    expect(await screen.findByRole('alert')).toHaveTextContent('Something went wrong while processing your request.');
    expect(screen.queryByText(/database is locked/)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reload the page' })).toBeInTheDocument();
  });
});
