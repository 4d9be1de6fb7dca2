import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { paths } from '@/config/paths';
import { queryClient } from '@/lib/query-client';
import { renderRoute } from '@/testing/render-route';
import { signInAs } from '@/testing/session';

import type { CandidateReview } from '../api/review-candidate';

import { buildReview, reviewServer, type ReviewServerOptions } from './review-test-server';

/** A candidate of job j1 (or `job`) with buildReview's answers, each with ids of its own. */
function candidate(id: string, email: string, job = 'j1'): CandidateReview {
  const review = buildReview({ candidate: { id, email, job } });
  const answers = review.expand!.answers_via_candidate!.map((answer) => {
    const expand = Object.fromEntries(
      Object.entries(answer.expand ?? {}).map(([kind, record]) => [kind, { ...(record as { id: string }), id: `${id}-${(record as { id: string }).id}`, answer: `${id}-${answer.id}` }]),
    );
    return { ...answer, id: `${id}-${answer.id}`, candidate: id, expand };
  });
  return { ...review, expand: { ...review.expand, answers_via_candidate: answers } };
}

const grace = candidate('k1', 'grace@example.com');
const hedy = candidate('k2', 'hedy@example.com');
const joan = candidate('k3', 'joan@example.com', 'j9');

const paused = new WeakMap<HTMLMediaElement, boolean>();
let play: ReturnType<typeof vi.fn>;

beforeEach(() => {
  play = vi.fn(function (this: HTMLMediaElement) {
    paused.set(this, false);
    this.dispatchEvent(new Event('play'));
    return Promise.resolve();
  });
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(play);
  vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(function (this: HTMLMediaElement) {
    paused.set(this, true);
  });
  vi.spyOn(HTMLMediaElement.prototype, 'paused', 'get').mockImplementation(function (this: HTMLMediaElement) {
    return paused.get(this) ?? true;
  });
});

afterEach(() => {
  vi.restoreAllMocks();
  queryClient.clear();
});

async function openCompare(ids: string[], options: ReviewServerOptions = { review: grace, others: [hedy, joan] }) {
  const api = reviewServer(options);
  signInAs({ primaryCompany: 'c1' });
  const view = renderRoute(paths.companies.jobs.compare.href('c1', 'j1', ids));
  await screen.findByRole('heading', { level: 1, name: 'Compare candidates' });
  return { api, ...view };
}

const card = (email: string, question: string) => screen.getByRole('article', { name: `${email}: Answer to question ${question}` });

describe('comparing candidates', () => {
  it("shows each question with every candidate's answer side by side, and only this job's candidates", async () => {
    const { api } = await openCompare(['k1', 'k2', 'k3', 'nosuchcandidate']);
    const columns = await screen.findByRole('list', { name: 'Compared candidates' });
    expect(within(columns).getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual(['grace@example.com', 'hedy@example.com']);
    expect(within(columns).getAllByRole('link', { name: 'Open review' }).map((l) => l.getAttribute('href'))).toEqual([
      '/companies/c1/jobs/j1/candidates/k1',
      '/companies/c1/jobs/j1/candidates/k2',
    ]);

    const video = screen.getByRole('region', { name: '1. Introduce yourself' });
    expect(within(video).getAllByLabelText('Answer video')).toHaveLength(2);
    expect(within(card('grace@example.com', '1: Introduce yourself')).getByLabelText('Answer video')).toBeInTheDocument();
    expect(within(card('hedy@example.com', '1: Introduce yourself')).getByRole('radiogroup', { name: 'Your rating' })).toBeInTheDocument();
    const text = screen.getByRole('region', { name: '2. Why us?' });
    expect(within(text).getAllByText('Because I like people.')).toHaveLength(2);
    expect(within(screen.getByRole('region', { name: '3. A skipped question' })).getAllByText('No answer')).toHaveLength(2);

    // another job's candidate and an unknown one: named, and nothing of them shown
    const alert = screen.getAllByRole('alert').find((found) => found.textContent?.includes('in this link'))!;
    expect(alert).toHaveTextContent("One candidate in this link could not be found: the invitation may have been deleted, or it belongs to a company you don't manage.");
    expect(alert).toHaveTextContent("One candidate in this link applied to another job: only this job's candidates are compared here.");
    expect(screen.queryByText('joan@example.com')).not.toBeInTheDocument();
    // each candidate read through the review route, which decides on the server who may read it
    expect(api.requests.filter((r) => r.path.startsWith('/api/screenroom/reviews/')).map((r) => r.path).sort()).toEqual([
      '/api/screenroom/reviews/k1',
      '/api/screenroom/reviews/k2',
      '/api/screenroom/reviews/k3',
      '/api/screenroom/reviews/nosuchcandidate',
    ]);
  });

  it("moves with the review's keys: N and P through the answers, ] and [ across the candidates, 1 to 5 rate, Space and K play", async () => {
    const user = userEvent.setup();
    const { api } = await openCompare(['k1', 'k2']);
    const graceVideo = () => card('grace@example.com', '1: Introduce yourself');
    await waitFor(() => expect(graceVideo()).toHaveAttribute('aria-current', 'true'));

    await user.keyboard(']');
    expect(card('hedy@example.com', '1: Introduce yourself')).toHaveAttribute('aria-current', 'true');
    expect(card('hedy@example.com', '1: Introduce yourself')).toHaveFocus();
    // the last column: ] stays
    await user.keyboard(']');
    expect(card('hedy@example.com', '1: Introduce yourself')).toHaveAttribute('aria-current', 'true');
    // '[[' types one '['
    await user.keyboard('[[');
    expect(graceVideo()).toHaveAttribute('aria-current', 'true');

    // N: left to right, then the next question
    await user.keyboard('nn');
    expect(card('grace@example.com', '2: Why us?')).toHaveAttribute('aria-current', 'true');
    await user.keyboard('3');
    await waitFor(() => expect(api.store.ratings).toMatchObject([{ answer: 'k1-a2', candidate: 'k1', manager: 'u1', stars: 3 }]));
    await user.keyboard(']5');
    await waitFor(() => expect(api.store.ratings).toHaveLength(2));
    expect(api.store.ratings[1]).toMatchObject({ answer: 'k2-a2', candidate: 'k2', manager: 'u1', stars: 5 });
    expect(within(card('hedy@example.com', '2: Why us?')).getByRole('radio', { name: '5 stars' })).toBeChecked();
    expect(within(card('grace@example.com', '2: Why us?')).getByRole('radio', { name: '3 stars' })).toBeChecked();

    // P back to hedy's video, K plays it
    await user.keyboard('pp');
    const hedyVideo = card('hedy@example.com', '1: Introduce yourself');
    expect(hedyVideo).toHaveAttribute('aria-current', 'true');
    await user.keyboard('k');
    expect(play).toHaveBeenCalledTimes(1);
    expect(play.mock.contexts[0]).toBe(within(hedyVideo).getByLabelText('Answer video'));

    await user.keyboard('?');
    const help = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(within(help).getByText("Next candidate's answer to the same question")).toBeInTheDocument();
    expect(within(help).getByText("Previous candidate's answer to the same question")).toBeInTheDocument();
    expect(within(help).getByText('Rate the current answer 1 to 5 stars')).toBeInTheDocument();
  });

  it('keeps the answer the manager moved to when the play event of the one K started comes late', async () => {
    // the browser fires 'play' in a task of its own, which a busy machine may run after keys pressed meanwhile
    const late: HTMLMediaElement[] = [];
    play.mockImplementation(function (this: HTMLMediaElement) {
      paused.set(this, false);
      late.push(this);
      return Promise.resolve();
    });
    const user = userEvent.setup();
    await openCompare(['k1', 'k2']);
    const graceVideo = card('grace@example.com', '1: Introduce yourself');
    await waitFor(() => expect(graceVideo).toHaveAttribute('aria-current', 'true'));
    await user.keyboard('kk');
    await user.keyboard('n');
    const hedyVideo = card('hedy@example.com', '1: Introduce yourself');
    expect(hedyVideo).toHaveAttribute('aria-current', 'true');
    act(() => {
      for (const video of late) video.dispatchEvent(new Event('play'));
    });
    expect(hedyVideo).toHaveAttribute('aria-current', 'true');
    await user.keyboard('n');
    expect(card('grace@example.com', '2: Why us?')).toHaveAttribute('aria-current', 'true');

    // a play started on a player itself still makes its answer current
    act(() => {
      within(hedyVideo).getByLabelText('Answer video').dispatchEvent(new Event('play'));
    });
    expect(hedyVideo).toHaveAttribute('aria-current', 'true');
  });

  it('shows nothing of candidates this manager may not read, and says so', async () => {
    await openCompare(['k1', 'k2'], { review: candidate('k9', 'someone@example.com') });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      "2 candidates in this link could not be found: the invitation may have been deleted, or it belongs to a company you don't manage.",
    );
    expect(screen.queryByRole('list', { name: 'Compared candidates' })).not.toBeInTheDocument();
    expect(screen.queryByRole('article')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the pipeline' })).toHaveAttribute('href', '/companies/c1/jobs/j1');
  });

  it.each([
    [['k1'], 'Choose at least two candidates of this job in the pipeline to compare them.'],
    [['k1', 'k1'], 'Choose at least two candidates of this job in the pipeline to compare them.'],
    [['k1', 'k2', 'k3', 'k4', 'k5'], 'Choose at most four candidates to compare: the link names more.'],
  ])('asks for two to four candidates (%j)', async (ids, message) => {
    const { api } = await openCompare(ids);
    expect(screen.getByRole('alert')).toHaveTextContent(message);
    expect(screen.getByRole('link', { name: 'Back to the pipeline' })).toHaveAttribute('href', '/companies/c1/jobs/j1');
    expect(api.requests.filter((r) => r.path.startsWith('/api/screenroom/reviews/'))).toEqual([]);
  });
});
