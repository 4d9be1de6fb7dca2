import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Flex, Heading, Text } from '@radix-ui/themes';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router-dom';
import { toast } from '@/components/toast';

import { FormDevtools } from '@/components/form-devtools';
import { paths } from '@/config/paths';
import { reportFormError } from '@/components/form-error';

import { useRequestPasswordReset } from '../api/request-password-reset';
import { OrDivider } from '../components/or-divider';
import { TextInput } from '@/components/text-input';
import { resetPasswordSchema, type ResetPasswordInput, type ResetPasswordValues } from '../schemas';

export const RESET_LINK_SENT_MESSAGE = 'Password reset link sent to your email';

export function ResetPasswordScreen() {
  const navigate = useNavigate();
  const form = useForm<ResetPasswordInput, unknown, ResetPasswordValues>({
    resolver: zodResolver(resetPasswordSchema),
    defaultValues: { email: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const requestReset = useRequestPasswordReset();

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await requestReset.mutateAsync(values);
      toast.success(RESET_LINK_SENT_MESSAGE);
      await navigate(paths.auth.signIn.href());
    } catch (error) {
      reportFormError(error, form.setError, ['email']);
    }
  });

  return (
    <Flex direction="column" gap="4">
      <Heading as="h1" size="6" align="center">
        Reset Password
      </Heading>
      <Text size="2" color="gray" align="center">
        Enter your account&apos;s email and we&apos;ll send you a link to choose a new password.
      </Text>
      <form onSubmit={onSubmit} noValidate>
        <Flex direction="column" gap="3">
          <TextInput
            label="Email"
            type="email"
            autoComplete="email"
            error={errors.email?.message}
            {...form.register('email')}
          />
          <Button type="submit" size="3" loading={isSubmitting}>
            Reset Password
          </Button>
          <OrDivider />
          <Button asChild size="3" variant="outline">
            <Link to={paths.auth.signIn.href()}>Sign In</Link>
          </Button>
        </Flex>
        <FormDevtools control={form.control} />
      </form>
    </Flex>
  );
}
