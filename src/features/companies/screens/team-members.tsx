import { zodResolver } from '@hookform/resolvers/zod';
import { AlertDialog, Badge, Button, Flex, Heading, Link as RadixLink, Table, Text } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useParams } from 'react-router-dom';
import { toast } from '@/components/toast';

import { AppTheme } from '@/components/app-theme';
import { FormDevtools } from '@/components/form-devtools';
import { QueryState } from '@/components/query-state';
import { TextInput } from '@/components/text-input';
import { reportFormError } from '@/components/form-error';
import { showErrorToast } from '@/components/toaster';
import { UserAvatar } from '@/features/auth/components/user-avatar';
import { getErrorMessage } from '@/lib/errors';
import { formatDate } from '@/lib/format-date';
import type { UsersResponse } from '@/lib/pocketbase-types';
import { useSignedInUser } from '@/lib/session';
import { nameOrEmail } from '@/lib/person-name';

import { companyQueries } from '../api/company-queries';
import { managerInviteQueries, useInviteManager, useRevokeInvite } from '../api/manager-invites';
import { useRemoveManager } from '../api/remove-manager';
import { CompanySettingsLayout } from '../components/company-settings-layout';
import { inviteManagerSchema, type InviteManagerValues } from '../schemas';

export function TeamMembersScreen() {
  const { companyId = '' } = useParams();
  const company = useQuery(companyQueries.detail(companyId));

  return (
    <QueryState query={company}>
      {(data) => (
        <Team companyId={companyId} companyName={data.name} ownerId={data.owner} managers={data.expand?.managers ?? []} />
      )}
    </QueryState>
  );
}

type TeamProps = { companyId: string; companyName: string; ownerId: string; managers: UsersResponse[] };

/** A manager's name as people read it; their e-mail when they have none. */
function nameOf(manager: UsersResponse) {
  return nameOrEmail(manager);
}

function Team({ companyId, companyName, ownerId, managers }: TeamProps) {
  const user = useSignedInUser();
  // only the owner removes members (the server enforces it): nobody else is offered the action
  const isOwner = user.id === ownerId;
  return (
    <CompanySettingsLayout companyId={companyId} title="Team members">
      <Flex direction="column" gap="5">
        <InviteManagerForm companyId={companyId} />
        <section aria-label="Managers">
          <Table.Root variant="surface">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeaderCell>Member</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>Created</Table.ColumnHeaderCell>
                {isOwner ? (
                  <Table.ColumnHeaderCell>
                    <Text className="rt-visually-hidden">Actions</Text>
                  </Table.ColumnHeaderCell>
                ) : null}
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {managers.map((manager) => (
                <Table.Row key={manager.id} align="center">
                  <Table.Cell>
                    <Flex gap="3" align="center">
                      <UserAvatar user={manager} size="2" />
                      <Flex direction="column">
                        <Flex gap="2" align="center" wrap="wrap">
                          <Text weight="medium">{nameOf(manager)}</Text>
                          {/* the company's owner (its creator): only they remove managers, and nobody removes them */}
                          {manager.id === ownerId ? (
                            <Badge color="indigo" variant="soft">
                              Owner
                            </Badge>
                          ) : null}
                        </Flex>
                        {/* a link: a fellow manager is written to from here, and a table that scrolls on a phone
                            holds something the keyboard reaches (axe: scrollable-region-focusable) */}
                        <RadixLink href={`mailto:${manager.email}`} size="1" color="gray">
                          {manager.email}
                        </RadixLink>
                      </Flex>
                    </Flex>
                  </Table.Cell>
                  <Table.Cell>{formatDate(manager.created)}</Table.Cell>
                  {isOwner ? (
                    <Table.Cell>
                      {manager.id !== ownerId ? (
                        <RemoveMemberDialog companyId={companyId} companyName={companyName} manager={manager} />
                      ) : null}
                    </Table.Cell>
                  ) : null}
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        </section>
        <PendingInvites companyId={companyId} />
      </Flex>
    </CompanySettingsLayout>
  );
}

/** The owner's 'Remove' of one member, confirmed with what it does. */
function RemoveMemberDialog({ companyId, companyName, manager }: { companyId: string; companyName: string; manager: UsersResponse }) {
  const remove = useRemoveManager(companyId);
  const name = nameOf(manager);
  const confirm = () =>
    remove.mutate(manager.id, {
      onSuccess: () => toast.success(`${name} was removed from ${companyName}`),
      onError: (error) => showErrorToast(getErrorMessage(error)),
    });
  return (
    <AppTheme>
      <AlertDialog.Root>
        <AlertDialog.Trigger>
          <Button type="button" size="1" variant="soft" color="red" loading={remove.isPending} aria-label={`Remove ${name}`}>
            Remove
          </Button>
        </AlertDialog.Trigger>
        <AlertDialog.Content maxWidth="460px">
          <AlertDialog.Title>Remove {name} from the team?</AlertDialog.Title>
          <AlertDialog.Description size="2">
            {name} ({manager.email}) stops being a manager of {companyName} at once: they can no longer see or change its
            jobs, questions, candidates and answers. Their ratings and comments stay. You can invite them again later.
          </AlertDialog.Description>
          <Flex gap="3" mt="4" justify="end">
            <AlertDialog.Cancel>
              <Button variant="soft" color="gray">
                Cancel
              </Button>
            </AlertDialog.Cancel>
            <AlertDialog.Action>
              {/* high contrast: white on Radix's red 9 falls short of WCAG AA (3.9:1) */}
              <Button color="red" highContrast onClick={confirm}>
                Remove member
              </Button>
            </AlertDialog.Action>
          </Flex>
        </AlertDialog.Content>
      </AlertDialog.Root>
    </AppTheme>
  );
}

function InviteManagerForm({ companyId }: { companyId: string }) {
  const invite = useInviteManager(companyId);
  const form = useForm<InviteManagerValues>({ resolver: zodResolver(inviteManagerSchema), defaultValues: { email: '' } });
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = form;

  const submit = handleSubmit(async ({ email }) => {
    try {
      await invite.mutateAsync(email);
      toast.success(`Invitation sent to ${email}`);
      reset();
    } catch (error) {
      reportFormError(error, setError, ['email']);
    }
  });

  return (
    <form onSubmit={submit} noValidate aria-label="Invite a manager">
      <Flex gap="3" align="start">
        <Flex direction="column" flexGrow="1">
          <TextInput label="Email" error={errors.email?.message} {...register('email')} type="email" autoComplete="off" />
        </Flex>
        <Button type="submit" loading={isSubmitting} mt="5">
          Invite
        </Button>
      </Flex>
      <FormDevtools control={form.control} />
    </form>
  );
}

function PendingInvites({ companyId }: { companyId: string }) {
  const invites = useQuery(managerInviteQueries.list(companyId));
  const revoke = useRevokeInvite(companyId);
  if (!invites.data?.length) return null;
  return (
    <Flex direction="column" gap="2" asChild>
      <section aria-labelledby="pending-invites-heading">
        <Heading as="h2" size="3" id="pending-invites-heading">
          Pending invites
        </Heading>
        <Table.Root variant="surface">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeaderCell>Email</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>Invited on</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>
                <Text className="rt-visually-hidden">Actions</Text>
              </Table.ColumnHeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {invites.data.map((pending) => (
              <Table.Row key={pending.id}>
                <Table.Cell>{pending.email}</Table.Cell>
                <Table.Cell>{formatDate(pending.created)}</Table.Cell>
                <Table.Cell>
                  <Button
                    size="1"
                    variant="soft"
                    color="red"
                    aria-label={`Revoke the invite of ${pending.email}`}
                    onClick={() =>
                      revoke.mutate(pending.id, {
                        onSuccess: () => toast.success(`Invite of ${pending.email} revoked`),
                        onError: (error) => toast.error(getErrorMessage(error)),
                      })
                    }
                  >
                    Revoke
                  </Button>
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      </section>
    </Flex>
  );
}
