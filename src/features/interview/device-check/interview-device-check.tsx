import { Button, Callout, Flex, Heading, Spinner, Text } from '@radix-ui/themes';
import { useEffect, useMemo, useState, type ReactNode } from 'react';

import { checkConnection, CONNECTION_TEXT, type ConnectionVerdict } from '../api/connection-check';
import { CAMERA_PROBLEMS, CameraPreview, useCamera, VIDEO_BOX } from '../components/interview-camera';
import type { MediaProblem } from '../upload/media-recorder';

import { browserLabel, detectBrowser, unblockSteps } from './browser-help';
import { useMicrophoneLevel } from './microphone-level';
import { checkRecording, type RecordingCheck } from './recording-check';

export const MIC_HEARD = 'Microphone: we hear you';
export const MIC_SILENT = 'Microphone: we hear nothing yet — speak or check it is not muted';

type Props = {
  /** The link's key: the connection check is sent with it. */
  candidateKey: string;
  onContinue: () => void;
  /** What the practice question's link looks like here (a router link), or nothing. */
  practice?: ReactNode;
};

/**
 * The device and connection check before the first video question (issue 17 point 3): the camera's picture, the
 * microphone's level, a short recording through the interview's own recorder and its check at Stop, and a timed
 * upload. Continue once the camera and microphone are open; the other verdicts inform and do not block.
 */
export function InterviewDeviceCheck({ candidateKey, onContinue, practice }: Props) {
  const camera = useCamera();
  const mic = useMicrophoneLevel(camera.stream);
  const browser = useMemo(() => detectBrowser(navigator.userAgent), []);

  const [recording, setRecording] = useState<RecordingCheck | null>(null);
  useEffect(() => {
    setRecording(null);
    if (!camera.stream) return;
    let cancelled = false;
    void checkRecording(camera.stream).then((result) => {
      if (!cancelled) setRecording(result);
    });
    return () => {
      cancelled = true;
    };
  }, [camera.stream]);

  const [connectionAttempt, setConnectionAttempt] = useState(0);
  const [connection, setConnection] = useState<ConnectionVerdict | null>(null);
  useEffect(() => {
    setConnection(null);
    const abort = new AbortController();
    checkConnection(candidateKey, { signal: abort.signal }).then(
      (result) => setConnection(result.verdict),
      () => undefined,
    );
    return () => abort.abort();
  }, [candidateKey, connectionAttempt]);

  return (
    <Flex direction="column" gap="4">
      <Flex direction="column" gap="2">
        <Heading as="h1" size="6">
          Check your camera and microphone
        </Heading>
        <Text as="p" color="gray">
          Before your first video question, make sure we can see you, hear you and receive your answers. Nothing on this
          page is recorded or sent to the company.
        </Text>
      </Flex>

      {camera.status === 'error' ? (
        <CameraBlocked problem={camera.problem} browser={browser} onRetry={camera.retry} />
      ) : camera.status === 'ready' ? (
        <CameraPreview stream={camera.stream} />
      ) : (
        <Flex align="center" justify="center" gap="2" role="status" style={{ ...VIDEO_BOX, background: 'var(--gray-a2)' }}>
          <Spinner /> <Text color="gray">Starting your camera…</Text>
        </Flex>
      )}

      {camera.status === 'ready' ? (
        <Flex direction="column" gap="3" asChild>
          <ul aria-label="Checks" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
            <li>
              <Text weight="medium" color="green">
                Camera: we see you
              </Text>
            </li>
            <li>
              <Flex direction="column" gap="1">
                <MicrophoneMeter level={mic.level} />
                <Text weight="medium" color={mic.heard ? 'green' : 'amber'} aria-live="polite">
                  {mic.heard ? MIC_HEARD : MIC_SILENT}
                </Text>
              </Flex>
            </li>
            <li>
              {recording === null ? (
                <Flex gap="2" align="center">
                  <Spinner /> <Text color="gray">Recording: checking that your browser can record…</Text>
                </Flex>
              ) : recording.ok ? (
                <Text weight="medium" color="green">
                  Recording: works. Your answers will be recorded as {recording.format}.
                </Text>
              ) : (
                <Text weight="medium" color="red" role="alert">
                  Recording: {recording.message}
                </Text>
              )}
            </li>
          </ul>
        </Flex>
      ) : null}

      <Flex direction="column" gap="2" align="start">
        {connection === null ? (
          <Flex gap="2" align="center">
            <Spinner /> <Text color="gray">Connection: checking…</Text>
          </Flex>
        ) : (
          <Text weight="medium" color={connection === 'good' ? 'green' : connection === 'slow' ? 'amber' : 'red'} role="status">
            Connection: {CONNECTION_TEXT[connection]}
          </Text>
        )}
        {connection === 'slow' || connection === 'failed' ? (
          <Button variant="soft" onClick={() => setConnectionAttempt((n) => n + 1)}>
            Check the connection again
          </Button>
        ) : null}
      </Flex>

      <Flex gap="3" wrap="wrap" align="center">
        <Button size="3" onClick={onContinue} disabled={camera.status !== 'ready'}>
          Continue
        </Button>
        {practice}
      </Flex>
    </Flex>
  );
}

/** The microphone's level as a meter (role meter, 0-100), drawn as a bar. */
function MicrophoneMeter({ level }: { level: number }) {
  return (
    <div
      role="meter"
      aria-label="Microphone level"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={level}
      style={{ height: 12, borderRadius: 6, background: 'var(--gray-a4)', overflow: 'hidden', maxWidth: 320 }}
    >
      <div
        style={{
          height: '100%',
          width: `${level}%`,
          background: 'var(--green-9)',
          transition: 'width 100ms linear',
        }}
      />
    </div>
  );
}

/** Why the camera did not open, and, for a blocked one, the steps in the candidate's own browser. */
function CameraBlocked({
  problem,
  browser,
  onRetry,
}: {
  problem: MediaProblem;
  browser: ReturnType<typeof detectBrowser>;
  onRetry: () => void;
}) {
  const title =
    problem === 'denied'
      ? 'Your browser blocks the camera and microphone for this page'
      : problem === 'missing'
        ? 'We could not find a camera or microphone'
        : CAMERA_PROBLEMS[problem].title;
  return (
    <Callout.Root color="red" role="alert">
      <Flex direction="column" gap="2" align="start">
        <Text weight="bold">{title}</Text>
        {problem === 'denied' ? (
          <>
            <Text size="2">The video questions need both. To allow them in {browserLabel(browser)}:</Text>
            <ol style={{ margin: 0, paddingLeft: '1.25rem' }}>
              {unblockSteps(browser).map((step) => (
                <li key={step}>
                  <Text size="2">{step}</Text>
                </li>
              ))}
            </ol>
          </>
        ) : problem === 'missing' ? (
          <Text size="2">
            The video questions need a camera and a microphone, and this device has none we can use. Connect a camera
            and a microphone (or a headset), or open this link on a laptop or phone that has them, then press Try again.
          </Text>
        ) : (
          <Text size="2">{CAMERA_PROBLEMS[problem].help}</Text>
        )}
        <Button variant="soft" color="red" onClick={onRetry}>
          Try again
        </Button>
      </Flex>
    </Callout.Root>
  );
}
