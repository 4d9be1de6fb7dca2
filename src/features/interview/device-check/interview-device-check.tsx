import { Button, Callout, Flex, Heading, Spinner, Text } from '@radix-ui/themes';
import { useEffect, useId, useMemo, useState, type ReactNode } from 'react';
import { useIntl, type MessageDescriptor } from 'react-intl';

import { checkConnection, type ConnectionVerdict } from '../api/connection-check';
import { CameraPreview, VIDEO_BOX } from '../components/interview-camera';

import { BROWSER_NAMES, detectBrowser, otherBrowsers, unblockSteps, type Browser } from './browser-help';
import { liveTracks, useDeviceStream, type DeviceProblem } from './device-stream';
import { useMicrophoneLevel } from './microphone-level';
import { checkRecording, type RecordingCheck, type RecordingProblem } from './recording-check';

type Props = {
  /** The link's key: the connection check is sent with it. */
  candidateKey: string;
  onContinue: () => void;
  /** What the practice question's link looks like here (a router link), or nothing. */
  practice?: ReactNode;
};

/** The recording line's failures, after the check's own second take. */
const RECORDING_PROBLEM = {
  'no-video': 'deviceCheck.recording.noVideo',
  'no-audio': 'deviceCheck.recording.noAudio',
  short: 'deviceCheck.recording.short',
  stuck: 'deviceCheck.recording.stuck',
} as const;

/**
 * The device and connection check before the first video question: the camera's picture, the microphone's level, a
 * short recording through the interview's own recorder and its check at Stop, and timed uploads judged by what an
 * answer needs. A check that fails on a busy device's first try is tried again by itself before anything is said;
 * a line that still fails says so, with its own Try again that runs that check alone. Continue once the camera
 * gives a picture; the other verdicts inform and do not block.
 */
export function InterviewDeviceCheck({ candidateKey, onContinue, practice }: Props) {
  const intl = useIntl();
  const devices = useDeviceStream();
  const { stream, revision } = devices;
  const hasVideo = liveTracks(stream, 'video').length > 0;
  const hasAudio = liveTracks(stream, 'audio').length > 0;
  const [micGeneration, setMicGeneration] = useState(0);
  const mic = useMicrophoneLevel(hasAudio ? stream : null, micGeneration + revision);
  const userAgent = typeof navigator === 'undefined' ? '' : navigator.userAgent;
  const browser = useMemo(() => detectBrowser(userAgent), [userAgent]);
  const others = useMemo(() => {
    const names = otherBrowsers(userAgent);
    return names.length ? intl.formatList(names, { type: 'disjunction' }) : null;
  }, [intl, userAgent]);

  const [recordingAttempt, setRecordingAttempt] = useState(0);
  const [recording, setRecording] = useState<RecordingCheck | null>(null);
  useEffect(() => {
    setRecording(null);
    if (!stream || !hasVideo) return;
    const abort = new AbortController();
    void checkRecording(stream, { signal: abort.signal }).then((result) => {
      if (!abort.signal.aborted) setRecording(result);
    });
    return () => abort.abort();
  }, [stream, hasVideo, recordingAttempt]);

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

  const ready = devices.status === 'ready';

  return (
    <Flex direction="column" gap="4">
      <Flex direction="column" gap="2">
        <Heading as="h1" size="6">
          {intl.formatMessage({ id: 'deviceCheck.heading' })}
        </Heading>
        <Text as="p" color="gray">
          {intl.formatMessage({ id: 'deviceCheck.intro' })}
        </Text>
      </Flex>

      {devices.status === 'error' ? (
        <CameraBlocked problem={devices.problem} browser={browser} others={others} onRetry={devices.retryCamera} />
      ) : ready && hasVideo ? (
        <CameraPreview stream={devices.stream} />
      ) : ready ? null : (
        <Flex align="center" justify="center" gap="2" role="status" style={{ ...VIDEO_BOX, background: 'var(--gray-a2)' }}>
          <Spinner /> <Text color="gray">{intl.formatMessage({ id: 'deviceCheck.camera.starting' })}</Text>
        </Flex>
      )}

      <Flex direction="column" gap="3" asChild>
        <ul aria-label={intl.formatMessage({ id: 'deviceCheck.checks' })} style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {ready ? (
            <>
              <li>
                {hasVideo ? (
                  <CheckLine tone="good">{intl.formatMessage({ id: 'deviceCheck.camera.good' })}</CheckLine>
                ) : (
                  <CheckLine tone="bad" onRetry={devices.retryCamera}>
                    {intl.formatMessage({ id: 'deviceCheck.camera.noPicture' })}
                  </CheckLine>
                )}
              </li>
              <li>
                <Flex direction="column" gap="1">
                  {hasAudio ? <MicrophoneMeter level={mic.level} /> : null}
                  {!hasAudio ? (
                    <CheckLine tone="bad" onRetry={() => void devices.retryMicrophone()}>
                      {intl.formatMessage({ id: 'deviceCheck.microphone.none' })}
                    </CheckLine>
                  ) : mic.heard ? (
                    <CheckLine tone="good" live>
                      {intl.formatMessage({ id: 'deviceCheck.microphone.heard' })}
                    </CheckLine>
                  ) : (
                    <CheckLine tone="warn" live onRetry={() => setMicGeneration((n) => n + 1)}>
                      {intl.formatMessage({ id: 'deviceCheck.microphone.silent' })}
                    </CheckLine>
                  )}
                </Flex>
              </li>
              <li>
                {!hasVideo ? (
                  <CheckLine tone="waiting">{intl.formatMessage({ id: 'deviceCheck.recording.waiting' })}</CheckLine>
                ) : recording === null ? (
                  <CheckLine tone="pending">{intl.formatMessage({ id: 'deviceCheck.recording.checking' })}</CheckLine>
                ) : recording.ok ? (
                  <CheckLine tone="good">
                    {intl.formatMessage({ id: 'deviceCheck.recording.works' }, { format: recording.format })}
                  </CheckLine>
                ) : (
                  <RecordingFailed
                    problem={recording.problem}
                    others={others}
                    onRetry={() => setRecordingAttempt((n) => n + 1)}
                  />
                )}
              </li>
            </>
          ) : null}
          <li>
            {connection === null ? (
              <CheckLine tone="pending">{intl.formatMessage({ id: 'deviceCheck.connection.checking' })}</CheckLine>
            ) : connection === 'good' ? (
              <CheckLine tone="good">{intl.formatMessage({ id: 'deviceCheck.connection.good' })}</CheckLine>
            ) : (
              <CheckLine tone={connection === 'slow' ? 'warn' : 'bad'} onRetry={() => setConnectionAttempt((n) => n + 1)}>
                {intl.formatMessage({ id: connection === 'slow' ? 'deviceCheck.connection.slow' : 'deviceCheck.connection.failed' })}
              </CheckLine>
            )}
          </li>
        </ul>
      </Flex>

      <Flex gap="3" wrap="wrap" align="center">
        <Button size="3" onClick={onContinue} disabled={!ready || !hasVideo}>
          {intl.formatMessage({ id: 'deviceCheck.continue' })}
        </Button>
        {practice}
      </Flex>
    </Flex>
  );
}

type Tone = 'pending' | 'waiting' | 'good' | 'warn' | 'bad';

const TONE_COLOR = { good: 'green', warn: 'amber', bad: 'red' } as const;

/**
 * One check's line. A failed one ('bad') is an alert; one that only informs ('warn') a status. `onRetry` gives the
 * line its own Try again, described by the line's text (several lines may offer one). `live`: a line that changes by
 * itself (the microphone's) is announced politely.
 */
function CheckLine({ tone, children, onRetry, live }: { tone: Tone; children: ReactNode; onRetry?: () => void; live?: boolean }) {
  const intl = useIntl();
  const id = useId();
  if (tone === 'pending' || tone === 'waiting') {
    return (
      <Flex gap="2" align="center">
        {tone === 'pending' ? <Spinner /> : null} <Text color="gray">{children}</Text>
      </Flex>
    );
  }
  return (
    <Flex gap="3" align="center" wrap="wrap">
      <Text
        id={id}
        weight="medium"
        color={TONE_COLOR[tone]}
        role={tone === 'bad' ? 'alert' : tone === 'warn' && !live ? 'status' : undefined}
        aria-live={live ? 'polite' : undefined}
      >
        {children}
      </Text>
      {onRetry ? (
        <Button size="1" variant="soft" color={TONE_COLOR[tone]} onClick={onRetry} aria-describedby={id}>
          {intl.formatMessage({ id: 'deviceCheck.tryAgain' })}
        </Button>
      ) : null}
    </Flex>
  );
}

/**
 * The recording line after its second take failed too. A browser that cannot record (no recorder or no type it
 * records; a recorder that records nothing at all) names the browsers that can, on another engine than this one's;
 * any other failure is this device's, and names none.
 */
function RecordingFailed({ problem, others, onRetry }: { problem: RecordingProblem; others: string | null; onRetry: () => void }) {
  const intl = useIntl();
  if (problem === 'unsupported' || problem === 'empty') {
    const text =
      problem === 'unsupported'
        ? others
          ? intl.formatMessage({ id: 'deviceCheck.recording.unsupported' }, { browsers: others })
          : intl.formatMessage({ id: 'deviceCheck.recording.unsupportedOtherDevice' })
        : others
          ? intl.formatMessage({ id: 'deviceCheck.recording.empty' }, { browsers: others })
          : intl.formatMessage({ id: 'deviceCheck.recording.emptyOtherDevice' });
    // no recorder at all: trying again cannot change that
    return (
      <CheckLine tone="bad" onRetry={problem === 'empty' ? onRetry : undefined}>
        {text}
      </CheckLine>
    );
  }
  return (
    <CheckLine tone="bad" onRetry={onRetry}>
      {intl.formatMessage({ id: RECORDING_PROBLEM[problem] })}
    </CheckLine>
  );
}

/** The microphone's level as a meter (role meter, 0-100), drawn as a bar that grows from the line's start. */
function MicrophoneMeter({ level }: { level: number }) {
  const intl = useIntl();
  return (
    <div
      role="meter"
      aria-label={intl.formatMessage({ id: 'deviceCheck.microphone.level' })}
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
  others,
  onRetry,
}: {
  problem: DeviceProblem;
  browser: Browser;
  others: string | null;
  onRetry: () => void;
}) {
  const intl = useIntl();
  const m = (id: NonNullable<MessageDescriptor['id']>, values?: Record<string, string>) =>
    intl.formatMessage({ id }, values);
  let title: string;
  let body: ReactNode;
  switch (problem) {
    case 'denied': {
      const intro =
        browser.name === 'other'
          ? m('deviceCheck.camera.denied.introOther')
          : m(browser.phone ? 'deviceCheck.camera.denied.introPhone' : 'deviceCheck.camera.denied.intro', {
              browser: BROWSER_NAMES[browser.name],
            });
      title = m('deviceCheck.camera.denied.title');
      body = (
        <>
          <Text size="2">{intro}</Text>
          <ol style={{ margin: 0, paddingInlineStart: '1.25rem' }}>
            {unblockSteps(browser).map((step) => (
              <li key={step}>
                <Text size="2">{m(step)}</Text>
              </li>
            ))}
          </ol>
        </>
      );
      break;
    }
    case 'missing':
      title = m('deviceCheck.camera.missing.title');
      body = <Text size="2">{m('deviceCheck.camera.missing.help')}</Text>;
      break;
    case 'busy':
      title = m('deviceCheck.camera.busy.title');
      body = <Text size="2">{m('deviceCheck.camera.busy.help')}</Text>;
      break;
    case 'unsupported':
      title = m('deviceCheck.camera.unsupported.title');
      body = (
        <Text size="2">
          {others
            ? m('deviceCheck.camera.unsupported.help', { browsers: others })
            : m('deviceCheck.camera.unsupported.helpOtherDevice')}
        </Text>
      );
      break;
    default:
      title = m('deviceCheck.camera.failed.title');
      body = <Text size="2">{m('deviceCheck.camera.failed.help')}</Text>;
  }
  return (
    <Callout.Root color="red" role="alert">
      <Flex direction="column" gap="2" align="start">
        <Text weight="bold">{title}</Text>
        {body}
        {/* a browser without camera access stays without it: nothing to try again */}
        {problem === 'unsupported' ? null : (
          <Button variant="soft" color="red" onClick={onRetry}>
            {m('deviceCheck.tryAgain')}
          </Button>
        )}
      </Flex>
    </Callout.Root>
  );
}
