import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { queryClient } from '@/lib/query-client';
import { renderRoute } from '@/testing/render-route';
import { signInAs } from '@/testing/session';

import type { CandidateReview } from '../api/review-candidate';

import { buildReview, REVIEW_PATH, reviewServer, type ReviewServerOptions } from './review-test-server';

/** jsdom plays nothing: play() and pause() flip `paused` and fire their events, as a browser does. */
const paused = new WeakMap<HTMLMediaElement, boolean>();
let play: ReturnType<typeof vi.fn>;
let pause: ReturnType<typeof vi.fn>;

beforeEach(() => {
  play = vi.fn(function (this: HTMLMediaElement) {
    paused.set(this, false);
    this.dispatchEvent(new Event('play'));
    return Promise.resolve();
  });
  pause = vi.fn(function (this: HTMLMediaElement) {
    paused.set(this, true);
    this.dispatchEvent(new Event('pause'));
  });
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(play);
  vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(pause);
  vi.spyOn(HTMLMediaElement.prototype, 'paused', 'get').mockImplementation(function (this: HTMLMediaElement) {
    return paused.get(this) ?? true;
  });
});

afterEach(() => {
  vi.restoreAllMocks();
  queryClient.clear();
  localStorage.clear();
});

async function open(path = REVIEW_PATH, options: ReviewServerOptions = {}) {
  const api = reviewServer(options);
  signInAs({ primaryCompany: 'c1' });
  const view = renderRoute(path);
  await screen.findByRole('heading', { level: 1, name: (options.review ?? buildReview()).email });
  return { api, ...view };
}

const other = (id: string, email: string): CandidateReview => ({ ...buildReview(), id, email });
const link = (name: string) => screen.getByRole('link', { name });
/** The answer cards, named by the question each answers (buildReview's answers a1, a2 and the added a5). */
const CARD_NAMES: Record<string, string> = {
  a1: 'Answer to question 1: Introduce yourself',
  a2: 'Answer to question 2: Why us?',
  a5: 'Answer to question 3: A skipped question',
};
const card = (id: string) => screen.getByRole('article', { name: CARD_NAMES[id] });
/** A link at an end of the pipeline: still a link, announced as unavailable, going nowhere. */
function expectDisabledLink(name: string) {
  const end = link(name);
  expect(end).toHaveAttribute('aria-disabled', 'true');
  expect(end).not.toHaveAttribute('href');
  expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();
}

describe('previous and next candidate', () => {
  it("moves in the pipeline's order and filter, keeping its params and moving i", async () => {
    const user = userEvent.setup();
    const pipeline = '?sort=email&dir=asc&status=completed&q=example';
    const { api, router } = await open(`${REVIEW_PATH}${pipeline}&page=2&i=30`, {
      others: [other('k0', 'ada@example.com'), other('k2', 'hedy@example.com')],
      pipeline: { ids: ['k0', 'k1', 'k2'], sort: 'email,id' },
    });

    await vi.waitFor(() => expect(link('Next candidate')).toHaveAttribute('href', `/companies/c1/jobs/j1/candidates/k2${pipeline}&page=2&i=31`));
    expect(link('Previous candidate')).toHaveAttribute('href', `/companies/c1/jobs/j1/candidates/k0${pipeline}&i=29`);
    // back to the pipeline, on the candidate's page
    expect(link('Support engineer')).toHaveAttribute('href', `/companies/c1/jobs/j1${pipeline}&page=2`);
    // the neighbours are looked up in the pipeline's filter, from the candidate's place in its order
    const lookups = api.requests.filter((r) => r.path.endsWith('/collections/candidates/records'));
    expect(lookups.map((r) => r.search.get('sort')).sort()).toEqual(['-email,-id', 'email,id']);
    for (const lookup of lookups) {
      expect(lookup.search.get('filter')).toContain('job = "j1" && status = "completed" && email ~ "example"');
      expect(lookup.search.get('filter')).toMatch(/\(email [<>] "grace@example.com" \|\| \(email = "grace@example.com" && id [<>] "k1"\)\)/);
      expect(lookup.search.get('perPage')).toBe('1');
    }

    await user.keyboard(']');
    expect(await screen.findByRole('heading', { level: 1, name: 'hedy@example.com' })).toBeInTheDocument();
    expect(router.state.location.pathname + router.state.location.search).toBe(`/companies/c1/jobs/j1/candidates/k2${pipeline}&page=2&i=31`);
    // the last one: no next
    // Testing Library's wait (a minute, src/testing/setup.ts): both neighbour lookups answer first on a busy machine
    await waitFor(() => {
      expectDisabledLink('Next candidate');
      expect(link('Previous candidate')).toHaveAttribute('href');
    });

    await user.keyboard('[[');
    expect(await screen.findByRole('heading', { level: 1, name: 'grace@example.com' })).toBeInTheDocument();
    await user.click(await screen.findByRole('link', { name: 'Previous candidate' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'ada@example.com' })).toBeInTheDocument();
    expect(router.state.location.search).toBe(`${pipeline}&i=29`);
    // the first one: no previous
    await waitFor(() => expectDisabledLink('Previous candidate'));
    // a disabled end goes nowhere when followed
    await user.click(link('Previous candidate'));
    expect(router.state.location.search).toBe(`${pipeline}&i=29`);
  });

  it("walks the pipeline's default order (newest first) when opened without its params", async () => {
    await open(REVIEW_PATH, { others: [other('k2', 'hedy@example.com')], pipeline: { ids: ['k1', 'k2'], sort: '-created,-id' } });
    await vi.waitFor(() => expect(link('Next candidate')).toHaveAttribute('href', '/companies/c1/jobs/j1/candidates/k2'));
    expectDisabledLink('Previous candidate');
  });

  it('keeps the index of the next one when a decision here took the candidate out of the filtered list', async () => {
    const user = userEvent.setup();
    await open(`${REVIEW_PATH}?decision=none&i=4`, { others: [other('k2', 'hedy@example.com')], pipeline: { ids: ['k1', 'k2'], sort: '-created,-id' } });
    await vi.waitFor(() => expect(link('Next candidate')).toHaveAttribute('href', '/companies/c1/jobs/j1/candidates/k2?decision=none&i=5'));
    await user.click(within(screen.getByRole('radiogroup', { name: 'Decision' })).getByRole('radio', { name: 'Advance' }));
    // k1 left the "no decision" list: k2 is now at k1's index
    await vi.waitFor(() => expect(link('Next candidate')).toHaveAttribute('href', '/companies/c1/jobs/j1/candidates/k2?decision=none&i=4'));
  });
});

describe('keyboard shortcuts', () => {
  it("lists them in a popover opened with 'Keyboard shortcuts' or '?'", async () => {
    const user = userEvent.setup();
    await open();
    await user.click(screen.getByRole('button', { name: 'Keyboard shortcuts' }));
    const help = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    for (const action of ['Play or pause the current answer', 'Next answer', 'Previous answer', 'Next candidate', 'Previous candidate', 'Rate the current answer 1 to 5 stars']) {
      expect(within(help).getByText(action)).toBeInTheDocument();
    }
    await user.keyboard('?');
    await vi.waitFor(() => expect(screen.queryByRole('dialog', { name: 'Keyboard shortcuts' })).not.toBeInTheDocument());
    await user.keyboard('?');
    expect(await screen.findByRole('dialog', { name: 'Keyboard shortcuts' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await vi.waitFor(() => expect(screen.queryByRole('dialog', { name: 'Keyboard shortcuts' })).not.toBeInTheDocument());
  });

  it('plays and pauses the current answer, moves between answers and rates the current one, never while typing', async () => {
    const user = userEvent.setup();
    const { api } = await open();
    const video = within(card('a1')).getByLabelText<HTMLVideoElement>('Answer video');
    // the first answer (in the job's order) is current
    expect(card('a1')).toHaveAttribute('aria-current', 'true');

    await user.keyboard(' ');
    expect(play).toHaveBeenCalledTimes(1);
    expect(video.paused).toBe(false);
    await user.keyboard('k');
    expect(pause).toHaveBeenCalledTimes(1);
    expect(video.paused).toBe(true);

    await user.keyboard('4');
    await vi.waitFor(() => expect(api.store.ratings).toMatchObject([{ answer: 'a1', manager: 'u1', stars: 4 }]));

    await user.keyboard('n');
    expect(card('a2')).toHaveAttribute('aria-current', 'true');
    expect(card('a2')).toHaveFocus();
    expect(card('a1')).not.toHaveAttribute('aria-current');
    await user.keyboard('2');
    await vi.waitFor(() => expect(api.store.ratings).toMatchObject([{ answer: 'a1', stars: 4 }, { answer: 'a2', stars: 2 }]));
    // a text answer has no video: Space does nothing
    await user.keyboard(' ');
    expect(play).toHaveBeenCalledTimes(1);

    await user.keyboard('p');
    expect(card('a1')).toHaveAttribute('aria-current', 'true');

    // typing in the comment field is typing
    await user.type(screen.getByLabelText('Add a comment'), 'k 5 n ]');
    expect(screen.getByLabelText('Add a comment')).toHaveValue('k 5 n ]');
    expect(play).toHaveBeenCalledTimes(1);
    expect(api.store.ratings).toHaveLength(2);
    expect(card('a1')).toHaveAttribute('aria-current', 'true');
  });

  it('makes an answer current when its video is played with the mouse, and pauses the other one', async () => {
    const twoVideos = buildReview();
    const answers = twoVideos.expand!.answers_via_candidate!;
    const a1 = answers.find((a) => a.id === 'a1')!;
    answers.push({ ...a1, id: 'a5', question: 'q3', created: '2026-03-04 10:25:00.000Z', expand: { video_answers_via_answer: { ...a1.expand!.video_answers_via_answer, id: 'va5', answer: 'a5' } as never } });
    await open(REVIEW_PATH, { review: twoVideos });
    const first = within(card('a1')).getByLabelText<HTMLVideoElement>('Answer video');
    const second = within(card('a5')).getByLabelText<HTMLVideoElement>('Answer video');
    void first.play();
    void second.play();
    await vi.waitFor(() => expect(card('a5')).toHaveAttribute('aria-current', 'true'));
    await vi.waitFor(() => expect(first.paused).toBe(true));
    expect(second.paused).toBe(false);
  });
});

describe('playback speed', () => {
  it('applies the chosen speed to every player and remembers it for this manager', async () => {
    const user = userEvent.setup();
    const { unmount } = await open();
    const video = within(card('a1')).getByLabelText<HTMLVideoElement>('Answer video');
    const speed = within(card('a1')).getByLabelText('Playback speed');
    expect(speed).toHaveValue('1');
    expect(within(speed).getAllByRole('option').map((o) => o.textContent)).toEqual(['1×', '1.25×', '1.5×', '2×']);

    await user.selectOptions(speed, '1.5×');
    await vi.waitFor(() => expect(video.playbackRate).toBe(1.5));
    expect(video.defaultPlaybackRate).toBe(1.5);
    expect(localStorage.getItem('screenroom.review.playbackSpeed.u1')).toBe('1.5');

    unmount();
    queryClient.clear();
    await open();
    expect(within(card('a1')).getByLabelText('Playback speed')).toHaveValue('1.5');
    await vi.waitFor(() => expect(within(card('a1')).getByLabelText<HTMLVideoElement>('Answer video').playbackRate).toBe(1.5));
  });

  it("starts another manager at 1×", async () => {
    localStorage.setItem('screenroom.review.playbackSpeed.u1', '2');
    reviewServer();
    signInAs({ id: 'u2', primaryCompany: 'c1' });
    renderRoute(REVIEW_PATH);
    const card = await screen.findByRole('article', { name: CARD_NAMES.a1 });
    expect(within(card).getByLabelText('Playback speed')).toHaveValue('1');
    expect(within(card).getByLabelText<HTMLVideoElement>('Answer video').playbackRate).toBe(1);
  });
});

describe('the timed transcript', () => {
  const segments = [
    { start: 0, end: 2.4, text: 'Hello, I am Grace.' },
    { start: 2.4, end: 5.1, text: 'I have five years of support experience.' },
    { start: 5.1, end: 8, text: 'I like solving problems.' },
  ];

  it('seeks the video to a segment and plays it; the segment being played is marked', async () => {
    const user = userEvent.setup();
    await open(REVIEW_PATH, {
      review: buildReview({ video: { transcriptStatus: 'done', transcript: segments.map((s) => s.text).join(' '), transcriptSegments: segments, durationSeconds: 8 } }),
    });
    const transcript = within(card('a1')).getByRole('list', { name: 'Transcript segments' });
    const buttons = within(transcript).getAllByRole('button');
    expect(buttons.map((b) => b.textContent)).toEqual(['0:00 Hello, I am Grace.', '0:02 I have five years of support experience.', '0:05 I like solving problems.']);
    expect(within(transcript).queryByRole('button', { current: 'time' })).toBeNull();

    await user.click(within(transcript).getByRole('button', { name: /five years/ }));
    const video = within(card('a1')).getByLabelText<HTMLVideoElement>('Answer video');
    expect(video.currentTime).toBe(2.4);
    expect(play).toHaveBeenCalled();
    expect(within(transcript).getByRole('button', { current: 'time' })).toHaveTextContent('five years');

    // the video plays on into the next segment
    video.currentTime = 6;
    fireEvent.timeUpdate(video);
    expect(within(transcript).getByRole('button', { current: 'time' })).toHaveTextContent('solving problems');
    expect(within(transcript).getAllByRole('button').filter((b) => b.hasAttribute('aria-current'))).toHaveLength(1);
  });

  it('shows the plain transcript of an answer transcribed without times', async () => {
    await open(REVIEW_PATH, { review: buildReview({ video: { transcriptStatus: 'done', transcript: 'he was not an ill disposed young man' } }) });
    expect(within(card('a1')).getByTestId('transcript')).toHaveTextContent('he was not an ill disposed young man');
    expect(within(card('a1')).queryByRole('list', { name: 'Transcript segments' })).not.toBeInTheDocument();
  });

  it('says, where the transcript would be, that an answer in a language the built-in engine lacks needs the Whisper-compatible endpoint', async () => {
    await open(REVIEW_PATH, { review: buildReview({ video: { transcriptStatus: 'language_unsupported', transcript: '', transcriptSegments: null, durationSeconds: 8 } }) });
    const transcript = within(card('a1')).getByTestId('transcript');
    expect(transcript).toHaveTextContent(/^Transcripts in this language need the Whisper-compatible endpoint$/);
    expect(within(card('a1')).queryByText('Transcript pending')).not.toBeInTheDocument();
    expect(within(card('a1')).queryByRole('list', { name: 'Transcript segments' })).not.toBeInTheDocument();
    // the video still plays
    expect(within(card('a1')).getByLabelText('Answer video')).toBeInTheDocument();
  });
});

describe('live updates', () => {
  it("subscribes to the candidate's ratings, comments and record, and unsubscribes on leaving", async () => {
    const { api, unmount } = await open();
    await vi.waitFor(() => expect(api.realtime.subscriptions('comments')).toHaveLength(1));
    expect(api.realtime.subscriptions('ratings')).toMatchObject([{ topic: '*', options: { filter: 'candidate = "k1"' }, active: true }]);
    expect(api.realtime.subscriptions('candidates')).toMatchObject([{ topic: 'k1', active: true }]);
    unmount();
    for (const collection of ['ratings', 'comments', 'candidates', 'video_answers', 'answers']) {
      expect(api.realtime.subscriptions(collection).every((s) => !s.active)).toBe(true);
    }
  });
});

describe('opened from a search hit', () => {
  it('makes the answer current and starts its video at the second the words are said', async () => {
    const segments = [
      { start: 0, end: 2.4, text: 'Hello, I am Grace.' },
      { start: 2.4, end: 5.1, text: 'I have five years of support experience.' },
    ];
    await open(`${REVIEW_PATH}?answer=a1&t=2.4`, {
      review: buildReview({ video: { transcriptStatus: 'done', transcript: 'Hello', transcriptSegments: segments, durationSeconds: 8 } }),
    });
    const video = within(card('a1')).getByLabelText<HTMLVideoElement>('Answer video');
    // the landing follows the review's first render (an effect): waited for, not assumed done with the heading
    await waitFor(() => {
      expect(card('a1')).toHaveAttribute('aria-current', 'true');
      expect(video.currentTime).toBe(2.4);
    });
    expect(card('a1')).toHaveFocus();
  });

  it('lands on a text answer without touching any video', async () => {
    await open(`${REVIEW_PATH}?answer=a2`);
    await waitFor(() => expect(card('a2')).toHaveAttribute('aria-current', 'true'));
    expect(card('a1')).not.toHaveAttribute('aria-current');
    expect(within(card('a1')).getByLabelText<HTMLVideoElement>('Answer video').currentTime).toBe(0);
  });

  it('ignores an answer that is not this candidate’s and a time that is not one', async () => {
    await open(`${REVIEW_PATH}?answer=zz9&t=abc`);
    await waitFor(() => expect(card('a1')).toHaveAttribute('aria-current', 'true'));
    expect(within(card('a1')).getByLabelText<HTMLVideoElement>('Answer video').currentTime).toBe(0);
  });
});
