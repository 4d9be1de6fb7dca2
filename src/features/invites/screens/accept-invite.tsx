import { Button, Flex, Heading, Link as RadixLink, Spinner, Text } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import { ClientResponseError } from 'pocketbase';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { toast } from '@/components/toast';

import { paths } from '@/config/paths';
import { getErrorMessage } from '@/lib/errors';
import { useSession } from '@/lib/session';

import { inviteQueries, useAcceptInvite } from '../api/accept-invite';

const NO_LONGER_VALID = 'This invitation is no longer valid';

/**
 * /invites/{inviteId}/{email}?key={key}: what each kind of visitor sees is ruled by decisions.md ## Routes. The key,
 * which only the invite's e-mail carries, is what a sign-up with the invite sends (it verifies the new account); the
 * id names the invite for its signed-in invitee.
 */
export function AcceptInviteScreen() {
  const { inviteId = '', email: routeEmail = '' } = useParams();
  const [searchParams] = useSearchParams();
  const inviteKey = searchParams.get('key') ?? '';
  const email = routeEmail.trim().toLowerCase();
  const { user } = useSession();
  const here = paths.invites.accept.href(inviteId, email);

  return (
    <Flex direction="column" gap="4">
      <Heading as="h1" size="5">
        Company invitation
      </Heading>
      {!user ? (
        <SignedOut inviteKey={inviteKey} email={email} returnTo={here} />
      ) : user.email.toLowerCase() !== email ? (
        <Text>
          This invite is for {email}. You are signed in as {user.email}.
        </Text>
      ) : (
        <ForThisUser inviteId={inviteId} />
      )}
    </Flex>
  );
}

function SignedOut({ inviteKey, email, returnTo }: { inviteKey: string; email: string; returnTo: string }) {
  // A link without a key (e-mailed before invites had one) still signs up, as a plain sign-up to confirm by e-mail.
  const signUp = inviteKey ? paths.auth.signUp.href({ invite: inviteKey, email }) : paths.auth.signUp.href();
  return (
    <Flex direction="column" gap="3">
      <Text>You have been invited to manage a company on Screenroom as {email}.</Text>
      <Flex gap="3">
        <Button asChild>
          <Link to={`${paths.auth.signIn.href()}?redirect=${encodeURIComponent(returnTo)}`}>Sign in</Link>
        </Button>
        <Button asChild variant="soft">
          <Link to={signUp}>Sign up</Link>
        </Button>
      </Flex>
    </Flex>
  );
}

function ForThisUser({ inviteId }: { inviteId: string }) {
  const navigate = useNavigate();
  const invite = useQuery(inviteQueries.detail(inviteId));
  const accept = useAcceptInvite();

  if (invite.isPending) return <Spinner />;
  if (invite.isError) {
    const gone = invite.error instanceof ClientResponseError && invite.error.status === 404;
    return <Text role="alert">{gone ? NO_LONGER_VALID : getErrorMessage(invite.error)}</Text>;
  }

  const companyName = invite.data.expand?.company?.name;
  return (
    <Flex direction="column" gap="3">
      <Text>
        {companyName ? (
          <>
            You are invited to manage <strong>{companyName}</strong>.
          </>
        ) : (
          'You are invited to manage a company.'
        )}
      </Text>
      <Flex>
        <Button
          loading={accept.isPending}
          onClick={() =>
            accept.mutate(inviteId, {
              onSuccess: () => {
                toast.success(companyName ? `You joined ${companyName}` : 'Invite accepted');
                void navigate(paths.home.href());
              },
              onError: (error) => toast.error(getErrorMessage(error)),
            })
          }
        >
          Accept invite
        </Button>
      </Flex>
      <RadixLink asChild size="2">
        <Link to={paths.home.href()}>Not now</Link>
      </RadixLink>
    </Flex>
  );
}
