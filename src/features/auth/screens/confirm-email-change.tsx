import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Flex, Heading, Text } from '@radix-ui/themes';
import { useForm } from 'react-hook-form';
import { useNavigate, useParams } from 'react-router-dom';
import { toast } from '@/components/toast';

import { FormDevtools } from '@/components/form-devtools';
import { paths } from '@/config/paths';
import { reportFormError } from '@/components/form-error';

import { useConfirmEmailChange } from '../api/confirm-email-change';
import { TextInput } from '@/components/text-input';
import { confirmEmailChangeSchema, type ConfirmEmailChangeInput, type ConfirmEmailChangeValues } from '../schemas';

export const EMAIL_CHANGED_MESSAGE = 'Your email was changed, please sign in with the new one';

/** The link of the e-mail-change e-mail: the account's password confirms the new address. */
export function ConfirmEmailChangeScreen() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const form = useForm<ConfirmEmailChangeInput, unknown, ConfirmEmailChangeValues>({
    resolver: zodResolver(confirmEmailChangeSchema),
    defaultValues: { password: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const confirm = useConfirmEmailChange();

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await confirm.mutateAsync({ ...values, token });
      toast.success(EMAIL_CHANGED_MESSAGE);
      await navigate(paths.auth.signIn.href(), { replace: true });
    } catch (error) {
      reportFormError(error, form.setError, ['password']);
    }
  });

  return (
    <Flex direction="column" gap="4">
      <Heading as="h1" size="6" align="center">
        Confirm email change
      </Heading>
      <Text size="2" color="gray" align="center">
        Enter your password to confirm your new email address.
      </Text>
      <form onSubmit={onSubmit} noValidate>
        <Flex direction="column" gap="3">
          <TextInput
            label="Password"
            type="password"
            autoComplete="current-password"
            error={errors.password?.message}
            {...form.register('password')}
          />
          <Button type="submit" size="3" loading={isSubmitting}>
            Confirm email change
          </Button>
        </Flex>
        <FormDevtools control={form.control} />
      </form>
    </Flex>
  );
}
