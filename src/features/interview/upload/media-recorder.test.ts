import { describe, expect, it, vi } from 'vitest';

import {
  AUDIO_BITS_PER_SECOND,
  classifyMediaError,
  containerOf,
  fileExtensionOf,
  LATE_PIECE_MS,
  piecesMayFollowStop,
  pickMimeType,
  PIECES_PER_GROUP,
  SETTLE_MS,
  stopStream,
  TakeRecorder,
  VIDEO_BITS_PER_SECOND,
  type Take,
} from './media-recorder';
import { readBytes } from './take-check';

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0';

describe('pickMimeType', () => {
  it('prefers VP9/Opus WebM', () => {
    expect(pickMimeType(() => true)).toBe('video/webm;codecs=vp9,opus');
  });

  it('falls back to VP8, then plain WebM, then MP4 (Safari)', () => {
    const only = (...types: string[]) => (type: string) => types.includes(type);
    expect(pickMimeType(only('video/webm;codecs=vp8,opus', 'video/webm', 'video/mp4'))).toBe('video/webm;codecs=vp8,opus');
    expect(pickMimeType(only('video/webm', 'video/mp4'))).toBe('video/webm');
    expect(pickMimeType(only('video/mp4'))).toBe('video/mp4');
    expect(pickMimeType(() => false)).toBeUndefined();
  });

  it('treats a throwing isTypeSupported as unsupported', () => {
    expect(
      pickMimeType((type) => {
        if (type.includes('vp9')) throw new Error('boom');
        return true;
      }),
    ).toBe('video/webm;codecs=vp8,opus');
  });
});

describe('bitrate cap', () => {
  it('keeps a 600 second answer well under the 150 MB limit', () => {
    const bytes = ((VIDEO_BITS_PER_SECOND + AUDIO_BITS_PER_SECOND) * 600) / 8;
    expect(bytes).toBeLessThan(100 * 1024 * 1024);
  });
});

describe('containerOf', () => {
  it('maps negotiated types to what the server accepts', () => {
    expect(containerOf('video/webm;codecs=vp9,opus')).toBe('video/webm');
    expect(containerOf('video/mp4;codecs=avc1')).toBe('video/mp4');
  });
});

describe('classifyMediaError', () => {
  it('tells a denied permission from a missing or busy device', () => {
    expect(classifyMediaError(new DOMException('x', 'NotAllowedError'))).toBe('denied');
    expect(classifyMediaError(new DOMException('x', 'NotFoundError'))).toBe('missing');
    expect(classifyMediaError(new DOMException('x', 'NotReadableError'))).toBe('busy');
    expect(classifyMediaError(new DOMException('x', 'NotSupportedError'))).toBe('unsupported');
  });
});

describe('stopStream', () => {
  it('stops every track (the camera light goes off)', () => {
    const tracks = [{ stop: vi.fn() }, { stop: vi.fn() }];
    stopStream({ getTracks: () => tracks } as unknown as MediaStream);
    tracks.forEach((track) => expect(track.stop).toHaveBeenCalledOnce());
    expect(() => stopStream(null)).not.toThrow();
  });
});

describe('piecesMayFollowStop', () => {
  it('is Firefox only', () => {
    expect(piecesMayFollowStop(FIREFOX)).toBe(true);
    expect(piecesMayFollowStop('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36')).toBe(false);
    expect(piecesMayFollowStop('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15')).toBe(false);
  });
});

describe('TakeRecorder', () => {
  /** A stand-in for the browser's MediaRecorder: the test emits its chunks. */
  class FakeRecorder {
    static last: FakeRecorder | null = null;
    static isTypeSupported = (type: string) => type === 'video/webm;codecs=vp9,opus';
    state: 'inactive' | 'recording' = 'inactive';
    mimeType = 'video/webm;codecs=vp9,opus';
    timeslice: number | undefined;
    ondataavailable: ((event: { data: Blob }) => void) | null = null;
    onstop: (() => void) | null = null;
    onerror: (() => void) | null = null;
    constructor() {
      FakeRecorder.last = this;
    }
    start(timeslice?: number) {
      this.state = 'recording';
      this.timeslice = timeslice;
    }
    stop() {
      this.state = 'inactive';
      this.ondataavailable?.({ data: new Blob(['last']) });
      this.onstop?.();
    }
    emit(text: string) {
      this.ondataavailable?.({ data: new Blob([text]) });
    }
  }

  it('hands each chunk on as it is recorded, in order, and builds the file of all of them', async () => {
    vi.stubGlobal('MediaRecorder', FakeRecorder);
    try {
      const recorder = new TakeRecorder({} as MediaStream);
      const chunks: number[] = [];
      recorder.start((data) => chunks.push(data.size));
      const fake = FakeRecorder.last!;
      expect(fake.timeslice).toBe(1000);
      fake.emit('ab');
      fake.emit('');
      fake.emit('cde');
      const take = await recorder.stop();
      expect(chunks).toEqual([2, 3, 4]);
      expect(take.blob.size).toBe(9);
      expect(take.mimeType).toBe('video/webm');
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('builds the file of a long take (pieces joined a group at a time) of every piece, in order', async () => {
    vi.stubGlobal('MediaRecorder', FakeRecorder);
    try {
      const recorder = new TakeRecorder({} as MediaStream);
      recorder.start();
      const fake = FakeRecorder.last!;
      // two full groups and part of a third, the stop's own piece last
      const pieces = Array.from({ length: PIECES_PER_GROUP * 2 + 7 }, (_, i) => `<${i}>`);
      pieces.forEach((piece) => fake.emit(piece));
      const take = await recorder.stop();
      expect(new TextDecoder().decode(await readBytes(take.blob))).toBe(`${pieces.join('')}last`);
      expect(take.blob.type).toBe('video/webm');
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('waits a moment after the stop event for a late last piece; one later still joins neither the file nor the parts', async () => {
    vi.stubGlobal('MediaRecorder', FakeRecorder);
    vi.useFakeTimers();
    /** A take of 'ab' whose recorder fires stop before any ending piece (Firefox under load). */
    const stoppedFirst = () => {
      const recorder = new TakeRecorder({} as MediaStream);
      const pieces: [string, boolean][] = [];
      recorder.start((data, final) => pieces.push([String(data.size), final]));
      const fake = FakeRecorder.last!;
      fake.emit('ab');
      fake.state = 'inactive';
      fake.onstop?.();
      const handed: { take: Take | null } = { take: null };
      void recorder.stop().then((take) => (handed.take = take));
      return { recorder, fake, pieces, handed };
    };
    try {
      const late = stoppedFirst();
      await vi.advanceTimersByTimeAsync(LATE_PIECE_MS / 2);
      expect(late.handed.take).toBeNull();
      late.fake.emit('cde');
      await vi.advanceTimersByTimeAsync(0);
      expect(late.handed.take!.blob.size).toBe(5);
      expect(late.pieces).toEqual([['2', false], ['3', true]]);

      // no ending piece at all: after the wait, the take is what came, ended by an empty piece
      const none = stoppedFirst();
      await vi.advanceTimersByTimeAsync(LATE_PIECE_MS);
      expect(none.handed.take!.blob.size).toBe(2);
      none.fake.emit('too late');
      expect(none.pieces).toEqual([['2', false], ['0', true]]);

      // a timeslice's piece already on its way at stop() looks like the end: where pieces may follow the stop event
      // (Firefox), the true end after it joins
      const firefox = vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(FIREFOX);
      const queued = new TakeRecorder({} as MediaStream);
      const queuedPieces: [string, boolean][] = [];
      queued.start((data, final) => queuedPieces.push([String(data.size), final]));
      const fake3 = FakeRecorder.last!;
      fake3.state = 'inactive';
      fake3.emit('ab');
      fake3.onstop?.();
      let queuedTake: Take | null = null;
      void queued.stop().then((take) => (queuedTake = take));
      await vi.advanceTimersByTimeAsync(SETTLE_MS / 2);
      fake3.emit('cde');
      await vi.advanceTimersByTimeAsync(0);
      expect(queuedTake!.blob.size).toBe(5);
      expect(queuedPieces).toEqual([['2', true], ['3', true]]);
      firefox.mockRestore();

      // the screen left while the take waited for its end: it is never handed over
      const left = stoppedFirst();
      left.recorder.discard();
      await vi.advanceTimersByTimeAsync(LATE_PIECE_MS * 2);
      expect(left.handed.take).toBeNull();
      expect(left.pieces).toEqual([['2', false]]);
    } finally {
      vi.useRealTimers();
      vi.unstubAllGlobals();
    }
  });

  it('hands a take over at the stop event where every piece comes before it (Chromium, WebKit), after a settle in Firefox', async () => {
    vi.stubGlobal('MediaRecorder', FakeRecorder);
    vi.useFakeTimers();
    const handedAfterStop = async () => {
      const recorder = new TakeRecorder({} as MediaStream);
      recorder.start();
      const fake = FakeRecorder.last!;
      fake.emit('ab');
      const box: { handed: Take | null } = { handed: null };
      void recorder.stop().then((take) => (box.handed = take)); // FakeRecorder.stop: the ending piece, then the stop event
      await vi.advanceTimersByTimeAsync(0);
      const atStop = box.handed;
      await vi.advanceTimersByTimeAsync(SETTLE_MS);
      return { atStop, settled: box.handed };
    };
    try {
      const chromium = await handedAfterStop();
      expect(chromium.atStop!.blob.size).toBe(6);
      const firefox = vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(FIREFOX);
      const gecko = await handedAfterStop();
      firefox.mockRestore();
      expect(gecko.atStop).toBeNull();
      expect(gecko.settled!.blob.size).toBe(6);
    } finally {
      vi.useRealTimers();
      vi.unstubAllGlobals();
    }
  });

  it("records Safari's way: asks for MP4 where only MP4 is supported, and the take is an mp4 file (issue 17 point 9)", async () => {
    const asked: (string | undefined)[] = [];
    /** Safari (macOS and iOS): no WebM recording; the recorder reports its MP4 with H.264 and AAC. */
    class SafariRecorder {
      static isTypeSupported = (type: string) => type === 'video/mp4';
      state: 'inactive' | 'recording' = 'inactive';
      mimeType = 'video/mp4;codecs=avc1.42E01E,mp4a.40.2';
      ondataavailable: ((event: { data: Blob }) => void) | null = null;
      onstop: (() => void) | null = null;
      onerror: (() => void) | null = null;
      constructor(_stream: MediaStream, options?: { mimeType?: string }) {
        asked.push(options?.mimeType);
      }
      start() {
        this.state = 'recording';
      }
      stop() {
        this.state = 'inactive';
        this.ondataavailable?.({ data: new Blob(['mp4 take']) });
        this.onstop?.();
      }
    }
    vi.stubGlobal('MediaRecorder', SafariRecorder);
    try {
      const recorder = new TakeRecorder({} as MediaStream);
      recorder.start();
      const take = await recorder.stop();
      expect(asked).toEqual(['video/mp4']);
      expect(take.mimeType).toBe('video/mp4');
      expect(fileExtensionOf(take.mimeType)).toBe('mp4');
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
