import './interview-upload-status.css';

import { Box, Button, Flex, Link as ThemeLink, Progress, Text } from '@radix-ui/themes';
import { useEffect, useState } from 'react';
import { useIntl, type IntlShape } from 'react-intl';
import { Link, useLocation } from 'react-router-dom';

import { paths } from '@/config/paths';

import type { UploadState } from '../upload/upload-queue';

import { answerUploads, useAnswerUploads, useResentCount } from '../api/answer-uploads';
import { CONSENT_REQUIRED_PROBLEM } from '../api/give-consent';
import { isMessageKey } from '../i18n/message-keys';

function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [active]);
  return now;
}

function describe(intl: IntlShape, state: UploadState, now: number): string {
  // the server cannot store it yet (issue 26: a full disk answers 507, or 503), through the attempts that follow,
  // until one succeeds: the answer is safe here and goes by itself, nothing for the candidate to do
  if (state.storageFull && (state.status === 'waiting' || state.status === 'uploading')) {
    return intl.formatMessage({ id: 'upload.storageFull' });
  }
  switch (state.status) {
    case 'uploading':
      return intl.formatMessage({ id: 'upload.uploading' }, { progress: state.progress });
    case 'waiting': {
      if (!state.retryAt) return intl.formatMessage({ id: 'upload.waiting' });
      const seconds = Math.max(0, Math.ceil((state.retryAt - now) / 1000));
      return intl.formatMessage({ id: 'upload.retrying' }, { seconds });
    }
    case 'failed': {
      // a refusal a retry cannot fix: said in the interview's words (answer-transport.ts); the take stays here
      const problem = isMessageKey(intl.messages, state.error) ? state.error : 'errors.generic';
      return intl.formatMessage({ id: 'upload.failed' }, { problem: intl.formatMessage({ id: problem }) });
    }
    case 'done':
      return intl.formatMessage({ id: 'upload.done' });
  }
}

/**
 * The uploads this screen shows: each one on its way when the screen opened or since, kept once it arrived ('Answer
 * uploaded') until the candidate goes to another screen. The box sits above the screen's content, so it never goes
 * away under the candidate's pointer: when it went the moment the last upload ended, everything below it moved up
 * a hundred pixels, and a click on 'View question' at that instant landed on nothing (seen in Firefox under load).
 */
function useShownUploads(candidateId: string): readonly UploadState[] {
  const all = useAnswerUploads(candidateId);
  const { pathname } = useLocation();
  const pendingIds = all.filter((state) => state.status !== 'done').map((state) => state.id);
  const [shown, setShown] = useState({ pathname, ids: pendingIds });
  let current = shown;
  if (shown.pathname !== pathname) current = { pathname, ids: pendingIds };
  else if (pendingIds.some((id) => !shown.ids.includes(id))) {
    current = { pathname, ids: [...shown.ids, ...pendingIds.filter((id) => !shown.ids.includes(id))] };
  }
  // what the screen shows is derived during render (React's pattern for state that follows a prop)
  if (current !== shown) setShown(current);
  return all.filter((state) => current.ids.includes(state.id));
}

/** The answers on their way to the server; they are kept on this device until the server has them. */
export function InterviewUploadStatus({ candidateId }: { candidateId: string }) {
  const intl = useIntl();
  const shown = useShownUploads(candidateId);
  const pending = shown.filter((state) => state.status !== 'done');
  const now = useNow(pending.some((state) => state.retryAt));
  if (!shown.length) return null;
  const troubled = pending.some((state) => state.status === 'failed' || state.retryAt || state.storageFull);
  const retryable = pending.some((state) => state.status === 'failed' || state.retryAt);

  return (
    <Box
      mb="5"
      p="4"
      role="status"
      aria-label={intl.formatMessage({ id: 'upload.label' })}
      style={{
        borderRadius: 'var(--radius-4)',
        background: troubled ? 'var(--amber-a3)' : 'var(--accent-a3)',
        color: troubled ? 'var(--amber-a11)' : 'var(--accent-a11)',
      }}
    >
      <Flex direction="column" gap="2">
        {shown.map((state) => (
          <Flex key={state.id} direction="column" gap="1">
            <Text size="2">{describe(intl, state, now)}</Text>
            {state.status === 'failed' && state.error === CONSENT_REQUIRED_PROBLEM ? (
              // refused before consent: back to the start page, where 'I agree' is
              <Text size="2">
                <ThemeLink asChild>
                  <Link to={paths.candidates.start.href(candidateId)}>{intl.formatMessage({ id: 'upload.toStart' })}</Link>
                </ThemeLink>
              </Text>
            ) : null}
            <Progress
              value={Math.round(state.progress * 100)}
              max={100}
              aria-label={intl.formatMessage({ id: 'upload.progress' })}
              color={state.status === 'failed' ? 'red' : undefined}
            />
          </Flex>
        ))}
        <Text size="1" color="gray">
          {intl.formatMessage({ id: pending.length ? 'upload.keepOpen' : 'upload.arrived' })}
        </Text>
        {retryable ? (
          <Flex>
            <Button size="1" variant="soft" color="amber" onClick={() => answerUploads.retryNow()}>
              {intl.formatMessage({ id: 'upload.retryNow' })}
            </Button>
          </Flex>
        ) : null}
      </Flex>
    </Box>
  );
}

/** Asks before the page is left while an answer has not reached the server. */
export function useConfirmLeaveWhileUploading() {
  useEffect(() => {
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!answerUploads.hasPending()) return;
      event.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, []);
}

/**
 * Said once answers this device kept went to the server again because it had lost them (a restore of its database),
 * and it confirmed them; nothing when nothing went again.
 */
export function InterviewResentNote({ candidateId }: { candidateId: string }) {
  const intl = useIntl();
  const count = useResentCount(candidateId);
  if (!count) return null;
  return (
    <Text as="p" size="2" mb="4" color="gray" role="status" data-testid="interview-resent">
      {intl.formatMessage({ id: 'upload.resent' }, { count })}
    </Text>
  );
}
