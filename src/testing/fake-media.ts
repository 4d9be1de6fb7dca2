/**
 * A camera, microphone and MediaRecorder for jsdom, with the timing a test controls: when each recorder says it
 * started, whether it hands over anything, and what its file's header names. Install with `installFakeMedia()`
 * (stubs MediaRecorder, AudioContext and navigator.mediaDevices), undo with vi.unstubAllGlobals().
 */
import { vi } from 'vitest';

/** A WebM header naming a VP8 video and an Opus audio track, as take-check.ts reads it. */
export const WEBM_HEADER = '\x1a\x45\xdf\xa3 V_VP8 A_OPUS ';
/** The same without its audio track: a take with no sound. */
export const WEBM_HEADER_NO_AUDIO = '\x1a\x45\xdf\xa3 V_VP8 ';

/**
 * How one recorder behaves: its start event `startDelayMs` after start() (never when null), its pieces or none, one
 * every `pieceEveryMs` (the timeslice it was given when not said), its file's header.
 */
export type RecorderBehaviour = { startDelayMs?: number | null; data?: boolean; pieceEveryMs?: number; header?: string };

const bytes = (text: string) => new Blob([Uint8Array.from(text, (c) => c.charCodeAt(0))], { type: 'video/webm' });

export class FakeRecorder {
  /** One behaviour per recorder, in the order they are made; a recorder beyond the list records normally. */
  static behaviours: RecorderBehaviour[] = [];
  static made: FakeRecorder[] = [];
  static supported: (type: string) => boolean = (type) => type.startsWith('video/webm');
  static isTypeSupported(type: string) {
    return FakeRecorder.supported(type);
  }

  state: 'inactive' | 'recording' = 'inactive';
  mimeType = 'video/webm;codecs=vp9,opus';
  ondataavailable: ((event: { data: Blob }) => void) | null = null;
  onstop: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onstart: (() => void) | null = null;
  /** Date.now() when start() was called, when the start event came, when stop() was called. */
  calledAt: number | null = null;
  startedAt: number | null = null;
  stoppedAt: number | null = null;
  private readonly behaviour: RecorderBehaviour;
  private headerSent = false;
  private timers: ReturnType<typeof setTimeout>[] = [];
  private interval: ReturnType<typeof setInterval> | undefined;

  constructor(readonly stream: unknown) {
    this.behaviour = FakeRecorder.behaviours[FakeRecorder.made.length] ?? {};
    FakeRecorder.made.push(this);
  }

  start(timeslice = 1000) {
    this.state = 'recording';
    this.calledAt = Date.now();
    const delay = this.behaviour.startDelayMs === undefined ? 0 : this.behaviour.startDelayMs;
    if (delay === null) return;
    this.timers.push(
      setTimeout(() => {
        if (this.state !== 'recording') return;
        this.startedAt = Date.now();
        this.onstart?.();
        this.interval = setInterval(() => this.ondataavailable?.({ data: this.piece() }), this.behaviour.pieceEveryMs ?? timeslice);
      }, delay),
    );
  }

  private piece(): Blob {
    if (this.behaviour.data === false) return new Blob([]);
    const text = this.headerSent ? 'cluster ' : (this.behaviour.header ?? WEBM_HEADER);
    this.headerSent = true;
    return bytes(text);
  }

  stop() {
    this.timers.forEach(clearTimeout);
    clearInterval(this.interval);
    this.stoppedAt = Date.now();
    this.state = 'inactive';
    this.ondataavailable?.({ data: this.piece() });
    this.onstop?.();
  }
}

/** The microphone's samples as the analyser reads them: `FakeAudioContext.loudness` 0 is silence. */
export class FakeAudioContext {
  static loudness = 0.3;
  /** How many were made: each is one listening to the microphone. */
  static made = 0;
  state = 'running';
  constructor() {
    FakeAudioContext.made += 1;
  }
  createMediaStreamSource() {
    return { connect: () => undefined, disconnect: () => undefined };
  }
  createAnalyser() {
    return {
      fftSize: 1024,
      getFloatTimeDomainData(samples: Float32Array) {
        for (let i = 0; i < samples.length; i++) samples[i] = FakeAudioContext.loudness * Math.sin(i / 3);
      },
    };
  }
  resume() {
    return Promise.resolve();
  }
  close() {
    return Promise.resolve();
  }
}

export type FakeTrack = {
  kind: 'audio' | 'video';
  readyState: 'live' | 'ended';
  stop: () => void;
  addEventListener: () => void;
  removeEventListener: () => void;
};

export function fakeTrack(kind: 'audio' | 'video'): FakeTrack {
  const track: FakeTrack = {
    kind,
    readyState: 'live',
    stop: () => {
      track.readyState = 'ended';
    },
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  };
  return track;
}

/** A stream from getUserMedia, with the tracks asked for. */
export function fakeStream({ video = true, audio = true }: { video?: boolean; audio?: boolean } = {}): MediaStream {
  const tracks: FakeTrack[] = [];
  if (video) tracks.push(fakeTrack('video'));
  if (audio) tracks.push(fakeTrack('audio'));
  return {
    getTracks: () => [...tracks],
    getVideoTracks: () => tracks.filter((track) => track.kind === 'video'),
    getAudioTracks: () => tracks.filter((track) => track.kind === 'audio'),
    addTrack: (track: FakeTrack) => tracks.push(track),
    removeTrack: (track: FakeTrack) => tracks.splice(tracks.indexOf(track), 1),
  } as unknown as MediaStream;
}

/**
 * Stubs the browser's media: getUserMedia answers with a fresh stream of the tracks asked for, MediaRecorder is
 * FakeRecorder (reset), AudioContext is FakeAudioContext at a loud level. Undo with vi.unstubAllGlobals() and
 * vi.restoreAllMocks().
 */
export function installFakeMedia() {
  FakeRecorder.behaviours = [];
  FakeRecorder.made = [];
  FakeRecorder.supported = (type) => type.startsWith('video/webm');
  FakeAudioContext.loudness = 0.3;
  FakeAudioContext.made = 0;
  const getUserMedia = vi.fn((constraints: MediaStreamConstraints) =>
    Promise.resolve(fakeStream({ video: Boolean(constraints.video), audio: Boolean(constraints.audio) })),
  );
  vi.stubGlobal('MediaRecorder', FakeRecorder);
  vi.stubGlobal('AudioContext', FakeAudioContext);
  // a take's length is read by a media element when its bytes do not tell (take-check.ts): jsdom has neither object
  // URLs nor media loading, and the element then says nothing, as a browser that cannot tell does
  Object.assign(URL, { createObjectURL: () => 'blob:fake-take', revokeObjectURL: () => undefined });
  vi.spyOn(HTMLMediaElement.prototype, 'load').mockImplementation(() => undefined);
  Object.defineProperty(navigator, 'mediaDevices', { configurable: true, value: { getUserMedia } });
  return { getUserMedia };
}

export function setUserAgent(ua: string) {
  Object.defineProperty(navigator, 'userAgent', { configurable: true, get: () => ua });
}

export const USER_AGENTS = {
  chrome:
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  firefox: 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
  edge: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
  safariMac:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  safariIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  chromeAndroid:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  webkitGtk: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Safari/605.1.15',
} as const;
