import { Button, Callout, Flex, Text } from '@radix-ui/themes';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useIntl } from 'react-intl';

import type { MessageKey } from '../i18n/message-keys';

import { classifyMediaError, openCameraAndMicrophone, stopStream, type MediaProblem } from '../upload/media-recorder';

export type CameraState =
  | { status: 'opening'; stream: null }
  | { status: 'ready'; stream: MediaStream }
  | { status: 'error'; stream: null; problem: MediaProblem };

/**
 * The camera and microphone while the component is mounted: requested on mount, every track stopped on unmount
 * (the camera light goes off). `retry` asks again after the candidate fixed a denied or missing device.
 */
export function useCamera(): CameraState & { retry: () => void } {
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<CameraState>({ status: 'opening', stream: null });

  useEffect(() => {
    let cancelled = false;
    let opened: MediaStream | null = null;
    setState({ status: 'opening', stream: null });
    openCameraAndMicrophone().then(
      (stream) => {
        if (cancelled) {
          stopStream(stream);
          return;
        }
        opened = stream;
        setState({ status: 'ready', stream });
      },
      (error: unknown) => {
        if (!cancelled) setState({ status: 'error', stream: null, problem: classifyMediaError(error) });
      },
    );
    return () => {
      cancelled = true;
      stopStream(opened);
    };
  }, [attempt]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { ...state, retry };
}

/** Each camera problem in the candidate's language: its heading and what to do (the catalogs' camera.* keys). */
const CAMERA_PROBLEM_KEYS: Record<MediaProblem, { title: MessageKey; help: MessageKey }> = {
  denied: { title: 'camera.denied.title', help: 'camera.denied.help' },
  missing: { title: 'camera.missing.title', help: 'camera.missing.help' },
  busy: { title: 'camera.busy.title', help: 'camera.busy.help' },
  unsupported: { title: 'camera.unsupported.title', help: 'camera.unsupported.help' },
};

export function CameraProblem({ problem, onRetry }: { problem: MediaProblem; onRetry: () => void }) {
  const intl = useIntl();
  const { title, help } = CAMERA_PROBLEM_KEYS[problem];
  return (
    <Callout.Root color="red" role="alert">
      <Flex direction="column" gap="2" align="start">
        <Text weight="bold">{intl.formatMessage({ id: title })}</Text>
        <Text size="2">{intl.formatMessage({ id: help })}</Text>
        <Button variant="soft" color="red" onClick={onRetry}>
          {intl.formatMessage({ id: 'camera.retry' })}
        </Button>
      </Flex>
    </Callout.Root>
  );
}

/** The live camera picture, mirrored like a mirror and muted so the candidate does not hear themselves. */
/**
 * The size of the camera preview, of a recorded take and of the box shown while the camera starts: the same 16:9
 * box, so nothing below it moves when the camera's first frame (or the take's) arrives.
 */
export const VIDEO_BOX = {
  width: '100%',
  aspectRatio: '16 / 9',
  maxHeight: '55vh',
  objectFit: 'contain',
  borderRadius: 'var(--radius-3)',
  background: 'black',
} as const;

export function CameraPreview({ stream }: { stream: MediaStream }) {
  const intl = useIntl();
  const ref = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    const video = ref.current;
    if (!video) return;
    video.srcObject = stream;
    return () => {
      video.srcObject = null;
    };
  }, [stream]);
  return (
    <video
      ref={ref}
      autoPlay
      muted
      playsInline
      aria-label={intl.formatMessage({ id: 'camera.preview' })}
      // The box has its size before the stream's first frame: the buttons below never move when it arrives.
      style={{ ...VIDEO_BOX, transform: 'scaleX(-1)' }}
    />
  );
}
