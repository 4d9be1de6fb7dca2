import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Flex, Text } from '@radix-ui/themes';
import { useForm } from 'react-hook-form';
import { toast } from '@/components/toast';

import { reportFormError } from '@/components/form-error';
import { FormDevtools } from '@/components/form-devtools';
import { TextInput } from '@/components/text-input';
import { UnsavedChangesGuard } from '@/components/unsaved-changes';
import { useSignedInUser } from '@/lib/session';

import { useRequestEmailChange } from '../api/request-email-change';
import { PreferencesLayout } from '../components/preferences-layout';
import { updateEmailSchema, type UpdateEmailInput, type UpdateEmailValues } from '../schemas';

export function emailChangeSentMessage(email: string) {
  return `We sent a link to ${email} to confirm your new email`;
}

export function UpdateEmailScreen() {
  const user = useSignedInUser();
  const form = useForm<UpdateEmailInput, unknown, UpdateEmailValues>({
    resolver: zodResolver(updateEmailSchema),
    defaultValues: { email: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const requestEmailChange = useRequestEmailChange();

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await requestEmailChange.mutateAsync(values);
      toast.success(emailChangeSentMessage(values.email));
      form.reset({ email: '' });
    } catch (error) {
      // the server names the field `newEmail`; the form calls it `email`
      reportFormError(error, form.setError, ['email'], { rename: { newEmail: 'email' } });
    }
  });

  return (
    <PreferencesLayout title="Update Email" subtitle="Update your Email">
      <form onSubmit={onSubmit} noValidate>
        <Flex direction="column" gap="3">
          <Text size="2" color="gray">
            Your email is <Text weight="medium">{user.email}</Text>. We&apos;ll send a link to the new address; the
            change takes effect when you follow it.
          </Text>
          <TextInput
            label="New email"
            type="email"
            autoComplete="email"
            error={errors.email?.message}
            {...form.register('email')}
          />
          <Flex justify="end">
            <Button type="submit" loading={isSubmitting}>
              Update Email
            </Button>
          </Flex>
        </Flex>
        <FormDevtools control={form.control} />
        <UnsavedChangesGuard when={form.formState.isDirty && !isSubmitting} />
      </form>
    </PreferencesLayout>
  );
}
