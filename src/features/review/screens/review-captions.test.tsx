import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { CAPTIONS_KEY } from '@/components/video-captions';
import { pb } from '@/lib/pocketbase';
import { queryClient } from '@/lib/query-client';
import type { VideoAnswersResponse } from '@/lib/pocketbase-types';
import { server } from '@/testing/msw-server';
import { renderRoute } from '@/testing/render-route';
import { signInAs } from '@/testing/session';

import { buildReview, REVIEW_PATH, reviewServer, webVTT } from './review-test-server';

const segments = [
  { start: 0, end: 2.4, text: 'Hello, I am Grace.' },
  { start: 2.4, end: 5.1, text: 'I have five years of support experience.' },
];
const transcribed = { transcriptStatus: 'done', transcript: 'Hello, I am Grace. I have five years of support experience.', transcriptSegments: segments, durationSeconds: 8 } as const;

/** jsdom has no text tracks: each video's list holds one track per <track> child, whose mode the page sets. */
class FakeTextTrackList extends EventTarget {
  readonly tracks: { mode: TextTrackMode }[] = [];
  constructor(private readonly video: HTMLVideoElement) {
    super();
  }
  get length() {
    const count = this.video.querySelectorAll('track').length;
    while (this.tracks.length < count) this.tracks.push({ mode: 'disabled' });
    return count;
  }
  [index: number]: unknown;
}
const trackLists = new WeakMap<HTMLVideoElement, FakeTextTrackList>();
function textTracksOf(video: HTMLVideoElement): FakeTextTrackList {
  let list = trackLists.get(video);
  if (!list) {
    list = new Proxy(new FakeTextTrackList(video), {
      get: (target, key, receiver) => {
        if (typeof key === 'string' && /^\d+$/.test(key)) return target.length > Number(key) ? target.tracks[Number(key)] : undefined;
        const value = Reflect.get(target, key, receiver) as unknown;
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    trackLists.set(video, list);
  }
  return list;
}
const modes = (video: HTMLVideoElement) => {
  const list = textTracksOf(video);
  return Array.from({ length: list.length }, (_, index) => list.tracks[index]!.mode);
};

/** jsdom's Blob has no text(): read as a browser's FileReader does. */
function textOf(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
    reader.readAsText(blob);
  });
}

let captionRequests: Request[];

beforeEach(() => {
  captionRequests = [];
  vi.spyOn(HTMLMediaElement.prototype, 'textTracks', 'get').mockImplementation(function (this: HTMLMediaElement) {
    return textTracksOf(this as HTMLVideoElement) as unknown as TextTrackList;
  });
  server.events.on('request:start', ({ request }) => {
    if (request.url.includes('/captions.vtt')) captionRequests.push(request.clone());
  });
});

afterEach(() => {
  server.events.removeAllListeners();
  vi.restoreAllMocks();
  queryClient.clear();
  localStorage.clear();
});

/** The review with its video answer as given; `handlers` answer before the review's fake server does. */
async function openWith(video: Partial<VideoAnswersResponse>, handlers: Parameters<typeof server.use> = []) {
  reviewServer({ review: buildReview({ video }) });
  server.use(...handlers);
  signInAs({ primaryCompany: 'c1' });
  const { unmount } = renderRoute(REVIEW_PATH);
  const section = await screen.findByRole('region', { name: '1. Introduce yourself' });
  return { unmount, section, player: within(section).getByLabelText<HTMLVideoElement>('Answer video') };
}

describe('captions on the review', () => {
  it("shows the answer's captions by default, from the server's WebVTT read with the manager's session", async () => {
    let made: Blob | undefined;
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      made = blob as Blob;
      return 'blob:captions-va1';
    });
    const { section, player } = await openWith(transcribed);

    const track = await waitFor(() => {
      const found = player.querySelector('track');
      expect(found).not.toBeNull();
      return found!;
    });
    expect(track).toHaveAttribute('src', 'blob:captions-va1');
    expect(track).toHaveAttribute('kind', 'captions');
    expect(track).toHaveAttribute('srclang', 'en');
    expect(track).toHaveAttribute('label', 'Captions');
    expect(await textOf(made!)).toBe(webVTT(segments));
    expect(made!.type).toBe('text/vtt');
    expect(captionRequests.map((r) => [new URL(r.url).pathname, r.headers.get('Authorization')])).toEqual([
      ['/api/screenroom/video-answers/va1/captions.vtt', pb.authStore.token],
    ]);
    expect(within(section).getByRole('checkbox', { name: 'Captions' })).toBeChecked();
    await waitFor(() => expect(modes(player)).toEqual(['showing']));
    expect(within(section).queryByTestId('no-captions')).not.toBeInTheDocument();
  });

  it('switches them off and on, and remembers the choice on the next review', async () => {
    const user = userEvent.setup();
    const { section, player, unmount } = await openWith(transcribed);
    await waitFor(() => expect(modes(player)).toEqual(['showing']));

    await user.click(within(section).getByRole('checkbox', { name: 'Captions' }));
    expect(within(section).getByRole('checkbox', { name: 'Captions' })).not.toBeChecked();
    await waitFor(() => expect(modes(player)).toEqual(['hidden']));
    expect(localStorage.getItem(CAPTIONS_KEY)).toBe('off');

    // the player's own captions menu switched them on: the toggle follows
    textTracksOf(player).tracks[0]!.mode = 'showing';
    textTracksOf(player).dispatchEvent(new Event('change'));
    await waitFor(() => expect(within(section).getByRole('checkbox', { name: 'Captions' })).toBeChecked());
    expect(localStorage.getItem(CAPTIONS_KEY)).toBe('on');
    await user.click(within(section).getByRole('checkbox', { name: 'Captions' }));
    expect(localStorage.getItem(CAPTIONS_KEY)).toBe('off');

    // a later review starts with them off
    unmount();
    queryClient.clear();
    const again = await openWith(transcribed);
    expect(within(again.section).getByRole('checkbox', { name: 'Captions' })).not.toBeChecked();
    await waitFor(() => expect(modes(again.player)).toEqual(['hidden']));
  });

  it("offers the transcript's downloads as links carrying the manager's file token", async () => {
    const { section } = await openWith(transcribed);
    const text = await within(section).findByRole('link', { name: 'Download transcript (text)' });
    expect(text).toHaveAttribute('href', `${pb.buildURL('/api/screenroom/video-answers/va1/transcript.txt')}?token=token-1&download=1`);
    expect(text).toHaveAttribute('download');
    expect(within(section).getByRole('link', { name: 'Download captions (WebVTT)' })).toHaveAttribute(
      'href',
      `${pb.buildURL('/api/screenroom/video-answers/va1/captions.vtt')}?token=token-1&download=1`,
    );
  });

  it('says so when the captions cannot be loaded', async () => {
    const { section, player } = await openWith(transcribed, [
      http.get(pb.buildURL('/api/screenroom/video-answers/:id/captions.vtt'), () => HttpResponse.json({ message: 'boom' }, { status: 500 })),
    ]);
    expect(await within(section).findByRole('alert')).toHaveTextContent('The captions could not be loaded.');
    expect(player.querySelector('track')).toBeNull();
  });
});

describe('an answer without captions says why, and no words are made up', () => {
  const cases: [string, Partial<VideoAnswersResponse>, string, { text: boolean }][] = [
    ['pending', { transcriptStatus: 'pending' }, 'No captions yet: they appear when the transcript is ready.', { text: false }],
    ['failed', { transcriptStatus: 'failed' }, 'No captions: the transcript could not be made.', { text: false }],
    [
      'in a language the engine does not know',
      { transcriptStatus: 'language_unsupported', transcript: '', transcriptSegments: null },
      'No captions: there is no transcript in this language.',
      { text: false },
    ],
    ['transcribed without times', { transcriptStatus: 'done', transcript: 'Only words', transcriptSegments: null }, 'No captions: this transcript has no timings.', { text: true }],
    ['no speech found', { transcriptStatus: 'done', transcript: '', transcriptSegments: [] }, 'No captions: no speech was detected.', { text: false }],
  ];
  it.each(cases)('%s', async (_name, video, reason, { text }) => {
    const { section, player } = await openWith(video);
    expect(within(section).getByTestId('no-captions')).toHaveTextContent(reason);
    expect(within(section).queryByRole('checkbox', { name: 'Captions' })).not.toBeInTheDocument();
    expect(player.querySelector('track')).toBeNull();
    expect(within(section).queryByRole('link', { name: 'Download captions (WebVTT)' })).not.toBeInTheDocument();
    if (text) expect(await within(section).findByRole('link', { name: 'Download transcript (text)' })).toBeInTheDocument();
    else expect(within(section).queryByRole('link', { name: 'Download transcript (text)' })).not.toBeInTheDocument();
    expect(captionRequests).toEqual([]);
  });
});
