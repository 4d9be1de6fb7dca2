import { Button, Callout, Flex, Heading, Link as RadixLink, Text } from '@radix-ui/themes';
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';

import { paths } from '@/config/paths';
import { getErrorMessage } from '@/lib/errors';

import { useRequestVerification, verificationRetryAfter } from '../api/request-verification';

/** Spec §4's toast after a sign-up that needs confirming; decisions.md makes it the 'Check your inbox' screen's text. */
export const ACCOUNT_CREATED_MESSAGE = 'Your account was created, please confirm your email';
export const RESEND_LABEL = 'Resend the e-mail';
export const USE_ANOTHER_ADDRESS_LABEL = 'Use another address';
export const resentMessage = (email: string) => `We sent the e-mail again to ${email}.`;
/** The wait in seconds up to a minute, then in whole minutes (rounded up: never sooner than the server allows). */
export function resendWaitMessage(seconds: number): string {
  if (seconds <= 60) return `You can ask for another e-mail in ${seconds} second${seconds === 1 ? '' : 's'}.`;
  const minutes = Math.ceil(seconds / 60);
  return `You can ask for another e-mail in ${minutes} minutes.`;
}
/** The server refused to send the e-mail for this network's limit (per client address: an office shares one). */
export const MAIL_LIMIT_MESSAGE = 'Too many e-mails were asked for from your network in a short time, so this one was not sent.';
/** Any other failure to send the e-mail after the account was created. */
export const MAIL_NOT_SENT_MESSAGE = 'The e-mail could not be sent just now.';

/**
 * How long the resend button rests after a send. The server keeps its own limits (server/internal/platform/throttle.go:
 * requests per client, e-mails per address); this only keeps an impatient click from spending the address's budget.
 */
export const RESEND_COOLDOWN_SECONDS = 60;

/** When each address may be sent another e-mail, kept across screens (sign-up's screen, then sign-in's notice). */
const resendAllowedAt = new Map<string, number>();

/** Rests the resend for `email` until `seconds` from now (what the server said when it refused an e-mail). */
export function holdResend(email: string, seconds: number): void {
  resendAllowedAt.set(email, Math.max(resendAllowedAt.get(email) ?? 0, Date.now() + seconds * 1000));
}

/** For tests: forget every cooldown. */
export function resetResendCooldowns(): void {
  resendAllowedAt.clear();
}

/**
 * After a sign-up that needs its e-mail confirmed (issue 16): says what happens next, names the address, and
 * offers a new e-mail or another address instead of leaving the user on the sign-in form. `mailRefused`: the
 * account was created but its e-mail was not sent (security round three: a limit never breaks a sign-up that
 * succeeded); the resend says when another can be asked for.
 */
export function CheckInbox({
  email,
  mailRefused,
  onUseAnotherAddress,
}: {
  email: string;
  mailRefused?: { retryAfterSeconds: number | null };
  onUseAnotherAddress: () => void;
}) {
  return (
    <Flex direction="column" gap="4">
      <Heading as="h1" size="6" align="center">
        Check your inbox
      </Heading>
      <Callout.Root color="green" role="status">
        <Callout.Text weight="bold">{ACCOUNT_CREATED_MESSAGE}</Callout.Text>
      </Callout.Root>
      {mailRefused ? (
        <Text as="p" size="2">
          {mailRefused.retryAfterSeconds === null ? MAIL_NOT_SENT_MESSAGE : MAIL_LIMIT_MESSAGE} Ask for the e-mail
          to <Text weight="bold">{email}</Text> again below, then follow its link to confirm your address and sign in.
        </Text>
      ) : (
        <Text as="p" size="2">
          We sent a link to <Text weight="bold">{email}</Text>. Follow it to confirm your address, then sign in. If
          nothing arrives within a few minutes, look in your spam folder or ask for the e-mail again.
        </Text>
      )}
      <ResendVerification email={email} />
      <Button type="button" size="3" variant="outline" onClick={onUseAnotherAddress}>
        {USE_ANOTHER_ADDRESS_LABEL}
      </Button>
      <Text as="p" size="2" align="center">
        Confirmed already?{' '}
        <RadixLink asChild underline="always">
          <Link to={paths.auth.signIn.href()}>Sign In</Link>
        </RadixLink>
      </Text>
    </Flex>
  );
}

/**
 * 'Resend the e-mail', resting for a while after each send and saying until when; a send the server refused for
 * the client's limit rests it as long as the server says.
 */
export function ResendVerification({ email, color }: { email: string; color?: 'amber' }) {
  const resend = useRequestVerification();
  const [sent, setSent] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const waitSeconds = useSecondsUntil(resendAllowedAt.get(email) ?? 0);

  const onResend = () => {
    setFailure(null);
    setSent(false);
    resend.mutate(email, {
      onSuccess: () => {
        resendAllowedAt.set(email, Date.now() + RESEND_COOLDOWN_SECONDS * 1000);
        setSent(true);
      },
      onError: (error) => {
        const retryAfter = verificationRetryAfter(error);
        if (retryAfter === null) {
          setFailure(getErrorMessage(error));
          return;
        }
        console.error(error);
        holdResend(email, retryAfter);
        setFailure(MAIL_LIMIT_MESSAGE);
      },
    });
  };

  return (
    <Flex direction="column" gap="2">
      <Button
        type="button"
        size="3"
        variant="soft"
        color={color}
        loading={resend.isPending}
        disabled={waitSeconds > 0}
        onClick={onResend}
      >
        {RESEND_LABEL}
      </Button>
      <div aria-live="polite">
        {sent ? (
          <Text as="p" size="2" color="green">
            {resentMessage(email)}
          </Text>
        ) : null}
        {waitSeconds > 0 ? (
          <Text as="p" size="2" color="gray">
            {resendWaitMessage(waitSeconds)}
          </Text>
        ) : null}
        {failure ? (
          <Text as="p" size="2" color="red" role="alert">
            {failure}
          </Text>
        ) : null}
      </div>
    </Flex>
  );
}

/** Whole seconds left until `at` (0 once passed), ticking every second while there are any. */
function useSecondsUntil(at: number): number {
  const left = () => Math.max(0, Math.ceil((at - Date.now()) / 1000));
  const [seconds, setSeconds] = useState(left);
  useEffect(() => {
    setSeconds(left());
    if (at <= Date.now()) return undefined;
    const timer = window.setInterval(() => {
      const now = left();
      setSeconds(now);
      if (now === 0) window.clearInterval(timer);
    }, 1000);
    return () => window.clearInterval(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `left` reads only `at`
  }, [at]);
  return seconds;
}
