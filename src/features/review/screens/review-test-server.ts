/**
 * The server behind the review screen's component tests (MSW): the review route, file tokens, the ratings and
 * comments collections, the pipeline's neighbour lookups, fellow managers' names and the decision route, over an
 * in-memory store the tests read back ("what the server stores"). Rules are not modelled: they are tested against
 * a real PocketBase (tests/), this only answers as PocketBase answers.
 */
import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';

import { pb } from '@/lib/pocketbase';
import type { CandidatesResponse, DecisionMessagesResponse, RatingsResponse, VideoAnswersResponse } from '@/lib/pocketbase-types';
import { fullList, managerShellApi } from '@/testing/manager-shell-api';
import { fakeRealtime } from '@/testing/realtime';
import { server } from '@/testing/msw-server';
import { renderRoute } from '@/testing/render-route';
import { buildUser, signInAs } from '@/testing/session';

import type { CandidateReview } from '../api/review-candidate';
import type { ReviewComment } from '../api/review-comments';

export const REVIEW_PATH = '/companies/c1/jobs/j1/candidates/k1';
export const at = '2026-03-04 10:20:30.000Z';

export const rec = (collectionName: string, fields: Record<string, unknown>) => ({
  collectionId: `${collectionName}_id`,
  collectionName,
  created: at,
  updated: at,
  ...fields,
});

/** A PocketBase date `msAgo` before now. */
export function stamp(msAgo = 0): string {
  return new Date(Date.now() - msAgo).toISOString().replace('T', ' ');
}

export const videoAnswer = rec('video_answers', {
  id: 'va1',
  answer: 'a1',
  file: 'answer_abc.webm',
  transcript: '',
  transcriptStatus: 'pending',
  transcriptSegments: null,
  durationSeconds: 0,
  transcriptAttempts: 0,
  mimeType: 'video/webm',
}) as unknown as VideoAnswersResponse;

/** Candidate k1 of job j1: five questions; a video answer (a1), a text answer (a2), a kindless answer (a4). */
export function buildReview(overrides: { video?: Partial<VideoAnswersResponse>; candidate?: Partial<CandidatesResponse> } = {}): CandidateReview {
  return rec('candidates', {
    id: 'k1',
    email: 'grace@example.com',
    job: 'j1',
    status: 'completed',
    answeredCount: 3,
    startedAt: at,
    completedAt: at,
    averageRating: 0,
    ratingsCount: 0,
    decision: '',
    decisionBy: '',
    decisionAt: '',
    ...overrides.candidate,
    expand: {
      job: rec('jobs', {
        id: 'j1',
        title: 'Support engineer',
        questions: ['q1', 'q2', 'q3', 'q4', 'q5'],
        expand: {
          questions: [
            rec('questions', { id: 'q1', title: 'Introduce yourself', expand: { video_questions_via_question: rec('video_questions', { id: 'vq1', question: 'q1', takes: 2 }) } }),
            rec('questions', { id: 'q2', title: 'Why us?', expand: { text_questions_via_question: [rec('text_questions', { id: 'tq2', question: 'q2' })] } }),
            rec('questions', { id: 'q3', title: 'A skipped question', expand: { text_questions_via_question: rec('text_questions', { id: 'tq3', question: 'q3' }) } }),
            rec('questions', { id: 'q4', title: 'A broken answer', expand: { text_questions_via_question: rec('text_questions', { id: 'tq4', question: 'q4' }) } }),
            rec('questions', { id: 'q5', title: 'A kindless question', expand: {} }),
          ],
        },
      }),
      answers_via_candidate: [
        rec('answers', { id: 'a2', question: 'q2', candidate: 'k1', expand: { text_answers_via_answer: rec('text_answers', { id: 'ta2', answer: 'a2', content: 'Because I like people.' }) } }),
        rec('answers', { id: 'a1', question: 'q1', candidate: 'k1', expand: { video_answers_via_answer: { ...videoAnswer, ...overrides.video } } }),
        rec('answers', { id: 'a4', question: 'q4', candidate: 'k1', expand: {} }),
      ],
    },
  }) as unknown as CandidateReview;
}

/** The candidate record itself, as the records API and realtime send it: the review without its expand. */
export function candidateRecord(review: CandidateReview): CandidatesResponse {
  return Object.fromEntries(Object.entries(review).filter(([key]) => key !== 'expand')) as CandidatesResponse;
}

/** Another manager of the company (the signed-in test user is buildUser's u1, Ada Lovelace). */
export const maria = buildUser({ id: 'u2', email: 'maria@example.com', firstName: 'Maria', lastName: 'Manager' });
export const ada = buildUser();

export function rating(fields: Partial<RatingsResponse> & Pick<RatingsResponse, 'id' | 'answer' | 'manager' | 'stars'>): RatingsResponse {
  return { ...rec('ratings', { candidate: 'k1' }), created: stamp(60_000), updated: stamp(60_000), ...fields } as RatingsResponse;
}

export function comment(fields: Partial<ReviewComment> & Pick<ReviewComment, 'id' | 'author' | 'text'>): ReviewComment {
  const author = [ada, maria].find((user) => user.id === fields.author);
  return {
    ...rec('comments', { candidate: 'k1' }),
    created: stamp(5 * 60_000),
    updated: stamp(5 * 60_000),
    expand: author ? { author } : {},
    ...fields,
  } as ReviewComment;
}

type Request = { method: string; path: string; search: URLSearchParams; body: unknown };

export type ReviewServerOptions = {
  review?: CandidateReview;
  /** Other candidates' reviews (the neighbours moved to). */
  others?: CandidateReview[];
  ratings?: RatingsResponse[];
  comments?: ReviewComment[];
  /** The pipeline's candidate ids in the order of `sort` (the pipeline's sort for the URL under test). */
  pipeline?: { ids: string[]; sort: string };
  /** Decision messages already sent (decision_messages). */
  messages?: DecisionMessagesResponse[];
};

/** Installs the fake server and realtime; returns the store and every request the screen sent. */
export function reviewServer(options: ReviewServerOptions = {}) {
  managerShellApi();
  const store = {
    reviews: new Map<string, CandidateReview>([options.review ?? buildReview(), ...(options.others ?? [])].map((review) => [review.id, review])),
    ratings: [...(options.ratings ?? [])],
    comments: [...(options.comments ?? [])],
    messages: [...(options.messages ?? [])],
    tokens: 0,
  };
  const requests: Request[] = [];
  let counter = 0;
  const nextId = (prefix: string) => `new${prefix}${(counter += 1)}`;
  const notFound = () => HttpResponse.json({ status: 404, message: "The requested resource wasn't found.", data: {} }, { status: 404 });
  const log = async (request: globalThis.Request) => {
    const url = new URL(request.url);
    const text = request.method === 'GET' || request.method === 'DELETE' ? '' : await request.clone().text();
    const entry = { method: request.method, path: url.pathname, search: url.searchParams, body: text ? (JSON.parse(text) as unknown) : undefined };
    requests.push(entry);
    return entry;
  };
  const me = () => pb.authStore.record?.id ?? '';
  const users = [ada, maria];

  server.use(
    http.get(pb.buildURL('/api/screenroom/reviews/:id'), async ({ request, params }) => {
      await log(request);
      const review = store.reviews.get(String(params.id));
      return review ? HttpResponse.json(review) : notFound();
    }),
    // the captions route (server/internal/review/captions.go), for the video answers of the stored reviews
    http.get(pb.buildURL('/api/screenroom/video-answers/:id/captions.vtt'), async ({ request, params }) => {
      await log(request);
      const video = [...store.reviews.values()]
        .flatMap((review) => review.expand?.answers_via_candidate ?? [])
        .map((answer) => answer.expand?.video_answers_via_answer)
        .find((record) => record && !Array.isArray(record) && record.id === params.id) as VideoAnswersResponse | undefined;
      const segments = (video?.transcriptSegments ?? []) as { start: number; end: number; text: string }[];
      if (!video || video.transcriptStatus !== 'done' || segments.length === 0) {
        return HttpResponse.json({ status: 404, message: 'This answer has no captions.', data: {} }, { status: 404 });
      }
      return new HttpResponse(webVTT(segments), { headers: { 'Content-Type': 'text/vtt; charset=utf-8' } });
    }),
    http.post(pb.buildURL('/api/files/token'), () => {
      store.tokens += 1;
      return HttpResponse.json({ token: `token-${store.tokens}` });
    }),

    http.get(pb.buildURL('/api/collections/ratings/records'), async ({ request }) => {
      await log(request);
      return HttpResponse.json(fullList(store.ratings));
    }),
    http.post(pb.buildURL('/api/collections/ratings/records'), async ({ request }) => {
      const { body } = await log(request);
      const input = body as Pick<RatingsResponse, 'answer' | 'candidate' | 'manager' | 'stars'>;
      if (store.ratings.some((r) => r.answer === input.answer && r.manager === input.manager)) {
        return HttpResponse.json({ status: 400, message: 'Failed to create record.', data: { answer: { code: 'validation_not_unique', message: 'Value must be unique.' } } }, { status: 400 });
      }
      const record = rating({ id: nextId('r'), ...input, created: stamp(), updated: stamp() });
      store.ratings.push(record);
      return HttpResponse.json(record);
    }),
    http.patch(pb.buildURL('/api/collections/ratings/records/:id'), async ({ request, params }) => {
      const { body } = await log(request);
      const index = store.ratings.findIndex((r) => r.id === params.id);
      if (index < 0) return notFound();
      const record = { ...store.ratings[index]!, ...(body as Partial<RatingsResponse>), updated: stamp() };
      store.ratings[index] = record;
      return HttpResponse.json(record);
    }),
    http.delete(pb.buildURL('/api/collections/ratings/records/:id'), async ({ request, params }) => {
      await log(request);
      const before = store.ratings.length;
      store.ratings = store.ratings.filter((r) => r.id !== params.id);
      return before === store.ratings.length ? notFound() : new HttpResponse(null, { status: 204 });
    }),

    http.get(pb.buildURL('/api/collections/comments/records'), async ({ request }) => {
      await log(request);
      // sort=created,id, as the screen asks
      const sorted = [...store.comments].sort((a, b) => a.created.localeCompare(b.created) || a.id.localeCompare(b.id));
      return HttpResponse.json(fullList(sorted));
    }),
    http.post(pb.buildURL('/api/collections/comments/records'), async ({ request }) => {
      const { body } = await log(request);
      const input = body as Pick<ReviewComment, 'candidate' | 'author' | 'text'>;
      const record = comment({ id: nextId('m'), ...input, created: stamp(), updated: stamp() });
      store.comments.push(record);
      return HttpResponse.json(record);
    }),
    http.patch(pb.buildURL('/api/collections/comments/records/:id'), async ({ request, params }) => {
      const { body } = await log(request);
      const index = store.comments.findIndex((c) => c.id === params.id);
      if (index < 0) return notFound();
      const record = { ...store.comments[index]!, ...(body as Partial<ReviewComment>), updated: stamp() };
      store.comments[index] = record;
      return HttpResponse.json(record);
    }),
    http.delete(pb.buildURL('/api/collections/comments/records/:id'), async ({ request, params }) => {
      await log(request);
      const before = store.comments.length;
      store.comments = store.comments.filter((c) => c.id !== params.id);
      return before === store.comments.length ? notFound() : new HttpResponse(null, { status: 204 });
    }),

    http.get(pb.buildURL('/api/collections/candidates/records'), async ({ request }) => {
      const { search } = await log(request);
      const pipeline = options.pipeline;
      if (!pipeline) return HttpResponse.json({ page: 1, perPage: 1, totalItems: -1, totalPages: -1, items: [] });
      const current = /id [<>] "([^"]+)"/.exec(search.get('filter') ?? '')?.[1] ?? '';
      const forward = search.get('sort') === pipeline.sort;
      const neighbour = pipeline.ids[pipeline.ids.indexOf(current) + (forward ? 1 : -1)];
      return HttpResponse.json({ page: 1, perPage: 1, totalItems: -1, totalPages: -1, items: neighbour ? [{ id: neighbour }] : [] });
    }),

    http.get(pb.buildURL('/api/collections/users/records/:id'), async ({ request, params }) => {
      await log(request);
      const user = users.find((u) => u.id === params.id);
      return user ? HttpResponse.json(user) : notFound();
    }),

    // decision messages (server/internal/messages): what was sent, the preview and the send, for a decided candidate
    http.get(pb.buildURL('/api/collections/decision_messages/records'), async ({ request }) => {
      await log(request);
      return HttpResponse.json(fullList([...store.messages].sort((a, b) => b.sentAt.localeCompare(a.sentAt))));
    }),
    http.post(pb.buildURL('/api/screenroom/candidates/:id/decision-message/preview'), async ({ request, params }) => {
      const { body } = await log(request);
      const review = store.reviews.get(String(params.id));
      if (!review) return notFound();
      const kind = (body as { kind: string }).kind;
      return HttpResponse.json({
        kind,
        language: 'de',
        dir: 'ltr',
        to: review.email,
        subject: `Betreff (${kind})`,
        text: `Hallo,\n\nText der Nachricht (${kind}).\n\nViele Grüße\nAcme`,
        custom: false,
      });
    }),
    http.post(pb.buildURL('/api/screenroom/candidates/:id/decision-message'), async ({ request, params }) => {
      const { body } = await log(request);
      const kind = (body as { kind: 'advance' | 'reject' }).kind;
      const message = rec('decision_messages', {
        id: nextId('message'),
        candidate: String(params.id),
        kind,
        language: 'de',
        subject: `Betreff (${kind})`,
        body: `Text der Nachricht (${kind}).`,
        sentAt: stamp(),
        sentBy: me(),
      }) as unknown as DecisionMessagesResponse;
      store.messages.push(message);
      return HttpResponse.json(message);
    }),

    http.post(pb.buildURL('/api/screenroom/candidates/:id/decision'), async ({ request, params }) => {
      const { body } = await log(request);
      const review = store.reviews.get(String(params.id));
      if (!review) return notFound();
      const decision = (body as { decision: CandidatesResponse['decision'] }).decision;
      const updated: CandidateReview = {
        ...review,
        decision,
        decisionBy: decision ? me() : '',
        decisionAt: decision ? stamp() : '',
        updated: stamp(),
      };
      store.reviews.set(review.id, updated);
      return HttpResponse.json(candidateRecord(updated));
    }),
  );

  const realtime = fakeRealtime(['video_answers', 'answers', 'ratings', 'comments', 'candidates']);
  return { store, requests, realtime };
}

/** The review of grace@example.com against `reviewServer(options)`, signed in as a manager of c1: the server's api. */
export async function openReview(options: ReviewServerOptions = {}) {
  const api = reviewServer(options);
  signInAs({ primaryCompany: 'c1' });
  renderRoute(REVIEW_PATH);
  await screen.findByRole('heading', { level: 1, name: 'grace@example.com' });
  return api;
}

/** What the captions route answers for these segments. */
export function webVTT(segments: readonly { start: number; end: number; text: string }[]): string {
  const time = (seconds: number) => new Date(Math.round(seconds * 1000)).toISOString().slice(11, 23);
  return `WEBVTT\n${segments.map((s, index) => `\n${index + 1}\n${time(s.start)} --> ${time(s.end)}\n${s.text}\n`).join('')}`;
}
