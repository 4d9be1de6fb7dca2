import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Flex, Heading, Text } from '@radix-ui/themes';
import { useForm } from 'react-hook-form';
import { useNavigate, useParams } from 'react-router-dom';
import { toast } from '@/components/toast';

import { FormDevtools } from '@/components/form-devtools';
import { paths } from '@/config/paths';
import { reportFormError } from '@/components/form-error';

import { useConfirmPasswordReset } from '../api/confirm-password-reset';
import { TextInput } from '@/components/text-input';
import {
  confirmPasswordResetSchema,
  type ConfirmPasswordResetInput,
  type ConfirmPasswordResetValues,
} from '../schemas';

export const PASSWORD_RESET_MESSAGE = 'Your password was changed, you can sign in with it now';

/** The link of the password-reset e-mail: a new password, typed twice. */
export function ConfirmPasswordResetScreen() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const form = useForm<ConfirmPasswordResetInput, unknown, ConfirmPasswordResetValues>({
    resolver: zodResolver(confirmPasswordResetSchema),
    defaultValues: { password: '', passwordConfirm: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const confirm = useConfirmPasswordReset();

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await confirm.mutateAsync({ ...values, token });
      toast.success(PASSWORD_RESET_MESSAGE);
      await navigate(paths.auth.signIn.href(), { replace: true });
    } catch (error) {
      reportFormError(error, form.setError, ['password', 'passwordConfirm']);
    }
  });

  return (
    <Flex direction="column" gap="4">
      <Heading as="h1" size="6" align="center">
        Set a new password
      </Heading>
      <Text size="2" color="gray" align="center">
        Choose the new password of your account.
      </Text>
      <form onSubmit={onSubmit} noValidate>
        <Flex direction="column" gap="3">
          <TextInput
            label="New password"
            type="password"
            autoComplete="new-password"
            error={errors.password?.message}
            {...form.register('password')}
          />
          <TextInput
            label="Repeat new password"
            type="password"
            autoComplete="new-password"
            error={errors.passwordConfirm?.message}
            {...form.register('passwordConfirm')}
          />
          <Button type="submit" size="3" loading={isSubmitting}>
            Set new password
          </Button>
        </Flex>
        <FormDevtools control={form.control} />
      </form>
    </Flex>
  );
}
