/**
 * Camera, microphone and MediaRecorder plumbing for the candidate's video answers (decisions.md "Recording").
 * Shared code: it knows browsers, not questions or answers.
 */

/** Best first: VP9/Opus where supported, then VP8, then any WebM, then MP4 for Safari. */
export const RECORDING_MIME_TYPES = [
  'video/webm;codecs=vp9,opus',
  'video/webm;codecs=vp8,opus',
  'video/webm',
  'video/mp4',
] as const;

/**
 * Capped so the longest answer (600 s) stays well under the server's 150 MB limit:
 * (1.2 Mbit/s + 64 kbit/s) × 600 s ≈ 95 MB.
 */
export const VIDEO_BITS_PER_SECOND = 1_200_000;
export const AUDIO_BITS_PER_SECOND = 64_000;

export function pickMimeType(isTypeSupported: (type: string) => boolean): string | undefined {
  return RECORDING_MIME_TYPES.find((type) => {
    try {
      return isTypeSupported(type);
    } catch {
      return false;
    }
  });
}

/** The container of a negotiated type, as the server stores it ('video/webm' or 'video/mp4'). */
export function containerOf(mimeType: string): 'video/webm' | 'video/mp4' {
  return mimeType.startsWith('video/mp4') ? 'video/mp4' : 'video/webm';
}

export function fileExtensionOf(mimeType: string): 'webm' | 'mp4' {
  return containerOf(mimeType) === 'video/mp4' ? 'mp4' : 'webm';
}

export type MediaProblem = 'denied' | 'missing' | 'unsupported' | 'busy';

/** Why the camera or microphone could not be opened, in terms a candidate can act on. */
export function classifyMediaError(error: unknown): MediaProblem {
  const name = error instanceof Error || error instanceof DOMException ? error.name : '';
  switch (name) {
    case 'NotAllowedError':
    case 'PermissionDeniedError':
    case 'SecurityError':
      return 'denied';
    case 'NotFoundError':
    case 'DevicesNotFoundError':
    case 'OverconstrainedError':
      return 'missing';
    case 'NotReadableError':
    case 'TrackStartError':
    case 'AbortError':
      return 'busy';
    default:
      return 'unsupported';
  }
}

export function canRecord(): boolean {
  return (
    typeof navigator !== 'undefined' &&
    typeof navigator.mediaDevices?.getUserMedia === 'function' &&
    typeof MediaRecorder !== 'undefined'
  );
}

/** What an answer is recorded from: the device check opens the same camera and microphone the questions do. */
export const MEDIA_CONSTRAINTS = {
  video: { width: { ideal: 1280 }, height: { ideal: 720 }, facingMode: 'user' },
  audio: { echoCancellation: true, noiseSuppression: true },
} satisfies MediaStreamConstraints;

/** Opens the camera and microphone; throws a DOMException whose name classifyMediaError() understands. */
export async function openCameraAndMicrophone(): Promise<MediaStream> {
  if (!canRecord()) throw new DOMException('Recording is not supported in this browser', 'NotSupportedError');
  return navigator.mediaDevices.getUserMedia(MEDIA_CONSTRAINTS);
}

/** Stops every track, which turns the camera light off. */
export function stopStream(stream: MediaStream | null | undefined): void {
  stream?.getTracks().forEach((track) => track.stop());
}

export type Take = { blob: Blob; mimeType: string };

/**
 * How long a take waits after its recorder's stop event for the piece that ends it, when that piece has not come
 * first as the specification orders it (Firefox under load was seen to send it after stop). A piece later still
 * joins neither the take's file nor its parts: both always hold the same bytes.
 */
export const LATE_PIECE_MS = 500;

/**
 * How long a take waits after the stop event when a piece that looked like the end came before it: a timeslice's
 * piece already on its way when stop() was called looks the same, and the true end may follow it.
 */
export const SETTLE_MS = 100;

/**
 * Whether this browser may hand over a take's pieces after its stop event: Firefox was seen to (under load), so a take
 * there settles (SETTLE_MS) even when its ending piece came first. Chromium and WebKit queue every piece and the stop
 * event on one queue, in order, as the specification says: there the stop event comes after the last piece, and the
 * take is handed over at once (issue 20: the settle was 100 ms of every 'Stop Recording' → 'Submit answer').
 */
export function piecesMayFollowStop(userAgent = typeof navigator === 'undefined' ? '' : navigator.userAgent): boolean {
  return /\bFirefox\//.test(userAgent);
}

/** How many of a take's pieces are joined into one Blob as they come (TakePieces). */
export const PIECES_PER_GROUP = 30;

/**
 * A take's pieces, joined PIECES_PER_GROUP at a time as they come, so that its file at Stop is a Blob of a few
 * groups rather than of every piece: Chromium took 30 ms to join a 10-minute take's 600 pieces at Stop, and reading
 * that Blob's first bytes for the take's check 17 ms more (5 and 8 ms for a 1-minute take); of 20 groups, neither
 * grows with the take's length (issue 20 point 4). The same bytes in the same order.
 */
export class TakePieces {
  private readonly groups: Blob[] = [];
  private open: Blob[] = [];

  push(data: Blob): void {
    this.open.push(data);
    if (this.open.length < PIECES_PER_GROUP) return;
    this.groups.push(new Blob(this.open));
    this.open = [];
  }

  join(type: string): Blob {
    return new Blob([...this.groups, ...this.open], { type });
  }
}

/** One take at a time: start() clears earlier chunks, stop() resolves with the recorded file. */
export class TakeRecorder {
  private recorder: MediaRecorder | null = null;
  private finished: Promise<Take> | null = null;
  /** Abandons the take being sealed (discard() while it waits for a late piece): it is never handed over. */
  private abandon: (() => void) | null = null;

  constructor(private readonly stream: MediaStream) {}

  get recording(): boolean {
    return this.recorder?.state === 'recording';
  }

  /**
   * Starts a take; `onChunk` gets each piece of the file as the recorder emits it (about one a second), in order,
   * `final` on the piece that ends a take stopped by stop() (an empty piece when the recorder had nothing left).
   * `onStart` when the recorder says it started: a busy device may take seconds after start() to do so.
   */
  start(onChunk?: (data: Blob, final: boolean) => void, onStart?: () => void): void {
    const mimeType = pickMimeType((type) => MediaRecorder.isTypeSupported(type));
    // This take's own chunks: a late event of an earlier recorder cannot slip into them.
    const chunks = new TakePieces();
    const settles = piecesMayFollowStop();
    /** The piece that ends the take (recorder inactive) was handed on. */
    let ended = false;
    /** The take was handed over: nothing more joins it. */
    let sealed = false;
    const recorder = new MediaRecorder(this.stream, {
      ...(mimeType ? { mimeType } : {}),
      videoBitsPerSecond: VIDEO_BITS_PER_SECOND,
      audioBitsPerSecond: AUDIO_BITS_PER_SECOND,
    });
    this.recorder = recorder;
    this.finished = new Promise<Take>((resolve, reject) => {
      let stopped = false;
      let lateTimer: ReturnType<typeof setTimeout> | undefined;
      this.abandon = () => {
        sealed = true;
        clearTimeout(lateTimer);
      };
      const seal = () => {
        if (sealed) return;
        sealed = true;
        clearTimeout(lateTimer);
        if (!ended) onChunk?.(new Blob([]), true);
        const type = containerOf(recorder.mimeType || mimeType || 'video/webm');
        resolve({ blob: chunks.join(type), mimeType: type });
      };
      recorder.ondataavailable = (event) => {
        if (sealed) return;
        // the piece a stop() brings comes once the recorder is inactive
        const final = recorder.state === 'inactive';
        if (event.data.size === 0 && !final) return;
        if (event.data.size) chunks.push(event.data);
        ended ||= final;
        onChunk?.(event.data, final);
        // the end, come after the stop event: nothing more is waited for
        if (stopped && final) seal();
      };
      recorder.onstart = () => onStart?.();
      recorder.onerror = () => reject(new Error('The recording failed'));
      recorder.onstop = () => {
        stopped = true;
        // in order (every browser, nearly always), the ending piece came first: where pieces may follow the stop
        // event, a short settle in case it was a timeslice's piece and the true end follows; else the end gets a
        // moment to come
        if (ended && !settles) seal();
        else lateTimer = setTimeout(seal, ended ? SETTLE_MS : LATE_PIECE_MS);
      };
    });
    // A timeslice keeps memory flat and loses at most a second if the tab dies mid-take.
    recorder.start(1000);
  }

  async stop(): Promise<Take> {
    if (!this.recorder || !this.finished) throw new Error('Nothing is being recorded');
    if (this.recorder.state !== 'inactive') this.recorder.stop();
    return this.finished;
  }

  /** Drops a take in progress (leaving the screen) without building its file. */
  discard(): void {
    this.abandon?.();
    this.abandon = null;
    if (this.recorder && this.recorder.state !== 'inactive') {
      this.recorder.ondataavailable = null;
      this.recorder.onstop = null;
      this.recorder.stop();
    }
    this.recorder = null;
  }
}
