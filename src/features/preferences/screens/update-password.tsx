import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Flex } from '@radix-ui/themes';
import { useForm } from 'react-hook-form';
import { toast } from '@/components/toast';

import { FormDevtools } from '@/components/form-devtools';
import { TextInput } from '@/components/text-input';
import { reportFormError } from '@/components/form-error';
import { UnsavedChangesGuard } from '@/components/unsaved-changes';
import { useSignedInUser } from '@/lib/session';

import { useUpdatePassword } from '../api/update-password';
import { PreferencesLayout } from '../components/preferences-layout';
import { updatePasswordSchema, type UpdatePasswordInput, type UpdatePasswordValues } from '../schemas';

export const PASSWORD_UPDATED_MESSAGE = 'Your password was updated';

export function UpdatePasswordScreen() {
  const user = useSignedInUser();
  // decisions.md: no prefilled value in any field.
  const form = useForm<UpdatePasswordInput, unknown, UpdatePasswordValues>({
    resolver: zodResolver(updatePasswordSchema),
    defaultValues: { id: user.id, oldPassword: '', password: '', passwordConfirm: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const updatePassword = useUpdatePassword();

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await updatePassword.mutateAsync(values);
      toast.success(PASSWORD_UPDATED_MESSAGE);
      form.reset({ id: user.id, oldPassword: '', password: '', passwordConfirm: '' });
    } catch (error) {
      const fields = ['oldPassword', 'password', 'passwordConfirm'] as const;
      reportFormError(error, form.setError, fields);
    }
  });

  return (
    <PreferencesLayout title="Update Password">
      <form onSubmit={onSubmit} noValidate>
        <Flex direction="column" gap="3">
          <TextInput
            label="Current password"
            type="password"
            autoComplete="current-password"
            error={errors.oldPassword?.message}
            {...form.register('oldPassword')}
          />
          <TextInput
            label="New password"
            type="password"
            autoComplete="new-password"
            error={errors.password?.message}
            {...form.register('password')}
          />
          <TextInput
            label="Confirm new password"
            type="password"
            autoComplete="new-password"
            error={errors.passwordConfirm?.message}
            {...form.register('passwordConfirm')}
          />
          <Flex justify="end">
            <Button type="submit" loading={isSubmitting}>
              Update Password
            </Button>
          </Flex>
        </Flex>
        <FormDevtools control={form.control} />
        <UnsavedChangesGuard when={form.formState.isDirty && !isSubmitting} />
      </form>
    </PreferencesLayout>
  );
}
