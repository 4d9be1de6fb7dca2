import { Button, Callout, Flex, Heading, Spinner, Text } from '@radix-ui/themes';
import { useEffect, useRef } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { toast } from '@/components/toast';

import { paths } from '@/config/paths';
import { getErrorMessage } from '@/lib/errors';

import { useConfirmVerification } from '../api/confirm-verification';

export const EMAIL_CONFIRMED_MESSAGE = 'Your email is confirmed, you can sign in now';

/** The link of the verification e-mail: confirms on arrival, then on to sign-in. */
export function ConfirmVerificationScreen() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const { mutate, isError, error } = useConfirmVerification();
  // One confirmation per token, also when StrictMode runs the effect twice.
  const sentFor = useRef<string | null>(null);

  useEffect(() => {
    if (sentFor.current === token) return;
    sentFor.current = token;
    mutate(token, {
      onSuccess: () => {
        toast.success(EMAIL_CONFIRMED_MESSAGE);
        void navigate(paths.auth.signIn.href(), { replace: true });
      },
    });
  }, [token, mutate, navigate]);

  return (
    <Flex direction="column" gap="4">
      <Heading as="h1" size="6" align="center">
        Confirm your email
      </Heading>
      {isError ? (
        <>
          <Callout.Root color="red" role="alert">
            <Callout.Text>{getErrorMessage(error)}</Callout.Text>
          </Callout.Root>
          <Text size="2" color="gray">
            The link may have expired. Sign in and ask for a new one, or try the link again.
          </Text>
          <Button asChild size="3" variant="outline">
            <Link to={paths.auth.signIn.href()}>Sign In</Link>
          </Button>
        </>
      ) : (
        <Flex align="center" justify="center" gap="2">
          <Spinner />
          <Text size="2">Confirming your email…</Text>
        </Flex>
      )}
    </Flex>
  );
}
