import { Button, Flex, Spinner, Text } from '@radix-ui/themes';
import { useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { useIntl } from 'react-intl';

import { toast } from '@/components/toast';

import { formatSeconds } from '../i18n/format';
import type { MessageKey } from '../i18n/message-keys';

import { TakeRecorder, type Take } from '../upload/media-recorder';
import { checkTake, prepareTakeCheck, type TakeProblem } from '../upload/take-check';

import { CameraPreview, CameraProblem, useCamera, VIDEO_BOX } from './interview-camera';
import { Countdown, useCountdown } from './interview-countdown';
import { TimeUp } from './interview-time-up';
import { canRecordAgain, initialTakes, takeNumber, takesReducer } from './interview-takes';

type Props = {
  /** The answer time of each take, in seconds: its countdown runs while the take records. */
  timeout: number;
  /**
   * The preparation before the first take records, in seconds, run from `openedAt`: a visible countdown, then the
   * recording starts by itself. Without it (practice) the candidate starts each take.
   */
  preparation?: number;
  /** When the question was first opened, on this device's clock (see openedOnDeviceClock). */
  openedAt?: number;
  /** Unlimited time: no countdowns, no automatic start or stop. */
  untimed?: boolean;
  /** How many takes the candidate may record (the question's `takes`). */
  maxTakes: number;
  /** The takes the server already counted for this question. */
  takesUsed?: number;
  /** A take kept from an earlier visit, shown for review first, with what to say of it (issue 22). */
  kept?: { take: Take; label: string } | null;
  /** A take starts recording: returns what receives its chunks as they are recorded (they go to the server at once). */
  onRecordingStart?: () => (chunk: Blob, final: boolean) => void;
  /** A take is finished (stopped by the candidate or by the countdown): it is the one 'Submit answer' would send. */
  onTake: (take: Take) => void;
  /** A take failed its check at Stop (issue 23): it is not the candidate's take, and goes nowhere. */
  onTakeFailed?: () => void;
  onSubmit: (take: Take) => Promise<void>;
  onSkip: () => void;
  /** A practice question (issue 17 point 4): takes are numbered without a limit and nothing is submitted. */
  practice?: boolean;
};

/** What the candidate is told of a take that failed its check at Stop, in plain words. */
const TAKE_PROBLEM_KEYS: Record<TakeProblem, MessageKey> = {
  empty: 'takeProblem.empty',
  'no-video': 'takeProblem.empty',
  'no-audio': 'takeProblem.noAudio',
  short: 'takeProblem.short',
};

export function InterviewVideoAnswer({
  timeout,
  preparation,
  openedAt,
  untimed = false,
  maxTakes,
  takesUsed = 0,
  kept = null,
  onRecordingStart,
  onTake,
  onTakeFailed,
  onSubmit,
  onSkip,
  practice = false,
}: Props) {
  const intl = useIntl();
  const camera = useCamera();
  const [state, dispatch] = useReducer(takesReducer, { max: maxTakes, used: takesUsed, kept: kept?.take ?? null }, initialTakes);
  const showingKept = !!kept && state.take === kept.take;
  const [submitting, setSubmitting] = useState(false);
  /** What the candidate is told of a take that failed its check at Stop. */
  const [problem, setProblem] = useState<MessageKey | null>(null);
  const [checking, setChecking] = useState(false);
  const startedAt = useRef(0);

  // The answer time is the take's recorded length (decisions.md "Takes and time"): it runs while recording only.
  const counting = !untimed && camera.status === 'ready' && state.phase === 'recording';
  const remaining = useCountdown(timeout, counting);
  // Preparation: only before a first take with nothing recorded to fall back on, and on the server's clock from the
  // question's first opening, so a reload or the back button resumes it instead of starting it afresh.
  const preparing =
    !untimed &&
    preparation !== undefined &&
    openedAt !== undefined &&
    state.phase === 'ready' &&
    !state.take &&
    state.used < state.max;
  const preparationLeft = useCountdown(preparation ?? 0, preparing, openedAt);

  // A new stream (retry) gets a new recorder, in the render that enables 'Start Recording': a recorder made in an
  // effect after it left a click in between nothing to start (a busy machine saw it), and that take's Stop nothing to
  // stop. Leaving drops a take in progress.
  const recorder = useMemo(() => (camera.stream ? new TakeRecorder(camera.stream) : null), [camera.stream]);
  useEffect(() => () => recorder?.discard(), [recorder]);

  const stop = async () => {
    if (!recorder) return;
    try {
      const take = await recorder.stop();
      setChecking(true);
      const failed = await checkTake(take.blob, Date.now() - startedAt.current).finally(() => setChecking(false));
      if (failed) {
        // never queued or uploaded, and the take is given back (decisions.md "Takes and time")
        dispatch({ type: 'failed' });
        setProblem(TAKE_PROBLEM_KEYS[failed]);
        onTakeFailed?.();
        return;
      }
      dispatch({ type: 'stopped', take });
      onTake(take);
    } catch {
      dispatch({ type: 'failed' });
      toast.error(intl.formatMessage({ id: 'question.recordingFailed' }));
    }
  };

  const start = () => {
    try {
      if (!recorder) throw new Error('The camera is not open');
      recorder.start(onRecordingStart?.());
      startedAt.current = Date.now();
      prepareTakeCheck();
      dispatch({ type: 'start' });
    } catch {
      toast.error(intl.formatMessage({ id: 'question.recordingNotStarted' }));
    }
  };

  // Recording stops by itself at 0.
  useEffect(() => {
    if (remaining > 0 || !counting) return;
    if (state.phase === 'recording') void stop();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only the countdown reaching 0 triggers this
  }, [remaining, counting]);

  // The preparation is over: recording starts by itself, at once when the camera is ready (a reload after the
  // preparation ran out gives none back). Not over a failed take's message: its 'Try again' comes first.
  const cameraReady = camera.status === 'ready';
  useEffect(() => {
    if (!preparing || preparationLeft > 0 || !cameraReady || problem) return;
    start();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the end of the preparation and a ready camera trigger this
  }, [preparing, preparationLeft, cameraReady, problem]);

  const takeUrl = useMemo(() => (state.take ? URL.createObjectURL(state.take.blob) : null), [state.take]);
  useEffect(() => () => (takeUrl ? URL.revokeObjectURL(takeUrl) : undefined), [takeUrl]);

  if (state.phase === 'timeUp') return <TimeUp onContinue={onSkip} />;

  if (state.phase === 'ready' && state.used >= state.max) {
    // every take was used and none is kept (a take that failed): nothing is left to record
    return (
      <Flex direction="column" gap="3" align="start">
        <Text>{intl.formatMessage({ id: 'question.takesUsedUp' })}</Text>
        <Button size="3" onClick={onSkip}>
          {intl.formatMessage({ id: 'question.continue' })}
        </Button>
      </Flex>
    );
  }

  if (camera.status === 'error') return <CameraProblem problem={camera.problem} onRetry={camera.retry} />;

  const submit = async () => {
    if (!state.take) return;
    setSubmitting(true);
    try {
      await onSubmit(state.take);
    } catch {
      toast.error(intl.formatMessage({ id: 'question.notSaved' }));
      setSubmitting(false);
    }
  };

  return (
    <Flex direction="column" gap="3">
      <Flex justify="between" align="center">
        <Text weight="medium">
          {practice
            ? intl.formatMessage({ id: 'practice.take' }, { take: takeNumber(state) })
            : intl.formatMessage({ id: 'question.take' }, { take: takeNumber(state), takes: state.max })}
        </Text>
        {state.phase === 'review' || untimed || preparing ? null : (
          // before a take records, the full time it will get (not what the last take left)
          <Countdown remaining={state.phase === 'recording' ? remaining : timeout} />
        )}
      </Flex>

      {showingKept && state.phase === 'review' ? (
        <Text role="status" color="gray">
          {kept.label}
        </Text>
      ) : null}
      {state.phase === 'review' && takeUrl ? (
        <video
          src={takeUrl}
          controls
          playsInline
          aria-label={intl.formatMessage({ id: 'question.yourRecording' })}
          style={VIDEO_BOX}
        />
      ) : camera.status === 'ready' ? (
        <CameraPreview stream={camera.stream} />
      ) : (
        <Flex align="center" justify="center" gap="2" role="status" style={{ ...VIDEO_BOX, background: 'var(--gray-a2)' }}>
          <Spinner /> <Text color="gray">{intl.formatMessage({ id: 'question.cameraStarting' })}</Text>
        </Flex>
      )}

      {preparing && !problem ? (
        <Text role="timer" aria-live="off" size="4" weight="bold" data-testid="preparation">
          {intl.formatMessage({ id: 'question.recordingStartsIn' }, { time: formatSeconds(intl, preparationLeft) })}
        </Text>
      ) : null}
      {problem ? (
        <Flex direction="column" gap="2" align="start">
          <Text role="alert" color="red">
            {intl.formatMessage({ id: problem })}
          </Text>
          <Button size="3" onClick={() => setProblem(null)}>
            {intl.formatMessage({ id: 'question.tryAgain' })}
          </Button>
        </Flex>
      ) : null}
      <Flex gap="3" wrap="wrap">
        {state.phase === 'ready' && !problem ? (
          <Button size="3" color="red" onClick={start} disabled={camera.status !== 'ready'}>
            {intl.formatMessage({ id: preparing ? 'question.startNow' : 'question.start' })}
          </Button>
        ) : null}
        {state.phase === 'recording' && !checking ? (
          <Button size="3" color="red" variant="soft" onClick={() => void stop()}>
            {intl.formatMessage({ id: 'question.stop' })}
          </Button>
        ) : null}
        {checking ? (
          <Flex align="center" gap="2" role="status">
            <Spinner /> <Text color="gray">{intl.formatMessage({ id: 'question.checking' })}</Text>
          </Flex>
        ) : null}
        {state.phase === 'review' ? (
          <>
            {practice ? null : (
              <Button size="3" onClick={() => void submit()} loading={submitting}>
                {intl.formatMessage({ id: 'question.submit' })}
              </Button>
            )}
            {canRecordAgain(state) ? (
              <Button size="3" variant="soft" onClick={() => dispatch({ type: 'recordAgain' })} disabled={submitting}>
                {intl.formatMessage({ id: 'question.recordAgain' })}
              </Button>
            ) : null}
          </>
        ) : null}
      </Flex>
      {state.phase === 'recording' && !checking ? (
        <Text size="2" color="red" role="status">
          {intl.formatMessage({ id: 'question.recording' })}
        </Text>
      ) : null}
    </Flex>
  );
}
