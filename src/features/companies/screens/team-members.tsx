import { zodResolver } from '@hookform/resolvers/zod';
import { Badge, Button, Flex, Heading, Table, Text } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useParams } from 'react-router-dom';
import { toast } from 'sonner';

import { FormDevtools } from '@/components/form-devtools';
import { QueryState } from '@/components/query-state';
import { TextInput } from '@/components/text-input';
import { reportFormError } from '@/components/form-error';
import { getErrorMessage } from '@/lib/errors';
import { formatDate } from '@/lib/format-date';
import type { UsersResponse } from '@/lib/pocketbase-types';

import { companyQueries } from '../api/company-queries';
import { managerInviteQueries, useInviteManager, useRevokeInvite } from '../api/manager-invites';
import { CompanySettingsLayout } from '../components/company-settings-layout';
import { inviteManagerSchema, type InviteManagerValues } from '../schemas';

export function TeamMembersScreen() {
  const { companyId = '' } = useParams();
  const company = useQuery(companyQueries.detail(companyId));

  return (
    <QueryState query={company}>
      {(data) => <Team companyId={companyId} ownerId={data.owner} managers={data.expand?.managers ?? []} />}
    </QueryState>
  );
}

function Team({ companyId, ownerId, managers }: { companyId: string; ownerId: string; managers: UsersResponse[] }) {
  return (
    <CompanySettingsLayout companyId={companyId} title="Team members">
      <Flex direction="column" gap="5">
        <InviteManagerForm companyId={companyId} />
        <section aria-label="Managers">
          <Table.Root variant="surface">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeaderCell>Email</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>Created</Table.ColumnHeaderCell>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {managers.map((manager) => (
                <Table.Row key={manager.id}>
                  <Table.Cell>
                    <Flex gap="2" align="center" wrap="wrap">
                      {manager.email}
                      {/* the company's owner (its creator): only they remove managers, and nobody removes them */}
                      {manager.id === ownerId ? (
                        <Badge color="indigo" variant="soft">
                          Owner
                        </Badge>
                      ) : null}
                    </Flex>
                  </Table.Cell>
                  <Table.Cell>{formatDate(manager.created)}</Table.Cell>
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
