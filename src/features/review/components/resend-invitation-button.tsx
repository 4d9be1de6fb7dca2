import { Button, Flex, Text } from '@radix-ui/themes';
import { useEffect, useState } from 'react';
import { toast } from '@/components/toast';

import { showErrorToast } from '@/components/toaster';
import { getErrorMessage } from '@/lib/errors';

import { useResendInvitation } from '../api/resend-invitation';

/**
 * How long 'Resend invitation' stays disabled after a send. The server's per-address budget is the limit; this only
 * keeps a second click from spending it by accident.
 */
export const RESEND_PAUSE_MS = 60_000;

/** When each candidate's invitation was last resent from this tab: kept across the review's candidates. */
const lastSent = new Map<string, number>();

/** Forgets every pause (tests start afresh). */
export function clearResendPauses() {
  lastSent.clear();
}

/** 'Resend invitation': the same interview link, mailed again to the candidate. */
export function ResendInvitationButton({ candidateId, email }: { candidateId: string; email: string }) {
  const resend = useResendInvitation(candidateId);
  const [pausedUntil, setPausedUntil] = useState(() => (lastSent.get(candidateId) ?? 0) + RESEND_PAUSE_MS);
  const [now, setNow] = useState(() => Date.now());
  const paused = now < pausedUntil;

  // one timer to the end of the pause, then the button is enabled again
  useEffect(() => {
    if (!paused) return;
    const timer = window.setTimeout(() => setNow(Date.now()), pausedUntil - now);
    return () => window.clearTimeout(timer);
  }, [paused, pausedUntil, now]);

  const send = () =>
    resend.mutate(undefined, {
      onSuccess: () => {
        const at = Date.now();
        lastSent.set(candidateId, at);
        setNow(at);
        setPausedUntil(at + RESEND_PAUSE_MS);
        toast.success(`Invitation sent again to ${email}`);
      },
      onError: (error) => showErrorToast(getErrorMessage(error)),
    });

  return (
    <Flex gap="2" align="center" wrap="wrap">
      <Button type="button" size="1" variant="soft" loading={resend.isPending} disabled={paused} onClick={send}>
        Resend invitation
      </Button>
      {paused ? (
        <Text size="1" color="gray" role="status">
          Sent. You can send it again in a minute.
        </Text>
      ) : null}
    </Flex>
  );
}
