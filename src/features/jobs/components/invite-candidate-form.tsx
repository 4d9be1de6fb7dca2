import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Flex, Text, TextField } from '@radix-ui/themes';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';

import { FormDevtools } from '@/components/form-devtools';
import { reportFormError } from '@/components/form-error';

import { useInviteCandidate } from '../api/invite-candidate';
import { inviteCandidateSchema, type InviteCandidateValues } from '../schemas';

/** E-mail and 'Invite': the server stores the candidate and sends the interview e-mail. */
export function InviteCandidateForm({ jobId }: { jobId: string }) {
  const id = useId();
  const form = useForm<InviteCandidateValues>({
    resolver: zodResolver(inviteCandidateSchema),
    defaultValues: { email: '' },
  });
  const {
    register,
    formState: { errors, isSubmitting },
  } = form;
  const inviteCandidate = useInviteCandidate();

  async function submit({ email }: InviteCandidateValues) {
    try {
      await inviteCandidate.mutateAsync({ jobId, email });
      form.reset();
      toast.success(`Interview invitation sent to ${email}`);
    } catch (error) {
      reportFormError(error, form.setError, ['email']);
    }
  }

  return (
    <form noValidate onSubmit={form.handleSubmit(submit)}>
      <Flex direction="column" gap="1">
        <Text as="label" htmlFor={`${id}-email`} size="2" weight="medium">
          Email
        </Text>
        <Flex gap="2">
          <TextField.Root
            id={`${id}-email`}
            type="email"
            placeholder="candidate@example.com"
            style={{ flex: 1 }}
            {...register('email')}
            aria-invalid={errors.email ? true : undefined}
            aria-describedby={errors.email ? `${id}-email-error` : undefined}
          />
          <Button type="submit" loading={isSubmitting}>
            Invite
          </Button>
        </Flex>
        {errors.email?.message ? (
          <Text id={`${id}-email-error`} size="1" color="red">
            {errors.email.message}
          </Text>
        ) : null}
      </Flex>
      <FormDevtools control={form.control} />
    </form>
  );
}
