import { useCallback, useEffect, useState } from 'react';

import { classifyMediaError, MEDIA_CONSTRAINTS, stopStream, type MediaProblem } from '../upload/media-recorder';

/**
 * Why the camera and microphone did not open. 'unsupported': this browser has no way to open them at all;
 * 'failed': an error the browser does not name (retrying may help), where the questions' camera says 'unsupported'.
 */
export type DeviceProblem = MediaProblem | 'failed';

export type DeviceState =
  | { status: 'opening'; stream: null }
  | { status: 'ready'; stream: MediaStream }
  | { status: 'error'; stream: null; problem: DeviceProblem };

function problemOf(error: unknown): DeviceProblem {
  const problem = classifyMediaError(error);
  if (problem !== 'unsupported') return problem;
  return error instanceof DOMException && error.name === 'NotSupportedError' ? 'unsupported' : 'failed';
}

export function liveTracks(stream: MediaStream | null, kind: 'audio' | 'video'): MediaStreamTrack[] {
  if (!stream) return [];
  const tracks = kind === 'audio' ? stream.getAudioTracks() : stream.getVideoTracks();
  return tracks.filter((track) => track.readyState !== 'ended');
}

/**
 * The device check's camera and microphone, opened with the questions' own constraints but without asking for a
 * recorder first: a browser that cannot record still shows its picture and level, and the recording line alone says
 * it cannot record. Every track is stopped on unmount (the camera light goes off).
 * `retryCamera` opens both again; `retryMicrophone` asks for the microphone alone when the stream has none left,
 * keeping the camera as it is. `revision` changes whenever the stream's tracks do (one ended, one was added).
 */
export function useDeviceStream(): DeviceState & {
  revision: number;
  retryCamera: () => void;
  retryMicrophone: () => Promise<void>;
} {
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<DeviceState>({ status: 'opening', stream: null });
  const [revision, setRevision] = useState(0);

  useEffect(() => {
    let cancelled = false;
    let opened: MediaStream | null = null;
    setState({ status: 'opening', stream: null });
    const media = typeof navigator === 'undefined' ? undefined : navigator.mediaDevices;
    const open =
      typeof media?.getUserMedia === 'function'
        ? media.getUserMedia(MEDIA_CONSTRAINTS)
        : Promise.reject(new DOMException('This browser cannot open a camera', 'NotSupportedError'));
    open.then(
      (stream) => {
        if (cancelled) {
          stopStream(stream);
          return;
        }
        opened = stream;
        setState({ status: 'ready', stream });
      },
      (error: unknown) => {
        if (!cancelled) setState({ status: 'error', stream: null, problem: problemOf(error) });
      },
    );
    return () => {
      cancelled = true;
      stopStream(opened);
    };
  }, [attempt]);

  // a camera unplugged or a permission revoked ends its track: the lines follow
  const stream = state.stream;
  useEffect(() => {
    if (!stream) return;
    const tracks = stream.getTracks();
    const onEnded = () => setRevision((n) => n + 1);
    for (const track of tracks) track.addEventListener?.('ended', onEnded);
    return () => {
      for (const track of tracks) track.removeEventListener?.('ended', onEnded);
    };
  }, [stream, revision]);

  const retryCamera = useCallback(() => setAttempt((n) => n + 1), []);

  const retryMicrophone = useCallback(async () => {
    if (!stream || liveTracks(stream, 'audio').length > 0) return;
    try {
      const audio = await navigator.mediaDevices.getUserMedia({ audio: MEDIA_CONSTRAINTS.audio });
      for (const old of stream.getAudioTracks()) {
        stream.removeTrack(old);
        old.stop();
      }
      for (const track of audio.getAudioTracks()) stream.addTrack(track);
    } catch {
      // still no microphone: the line stays as it was, with its Try again
    }
    setRevision((n) => n + 1);
  }, [stream]);

  return { ...state, revision, retryCamera, retryMicrophone };
}
