import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Flex, Heading, Link as RadixLink } from '@radix-ui/themes';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router-dom';

import { FormDevtools } from '@/components/form-devtools';
import { paths } from '@/config/paths';
import { reportFormError } from '@/components/form-error';

import { useSignIn } from '../api/sign-in';
import { OrDivider } from '../components/or-divider';
import { TextInput } from '@/components/text-input';
import { signInSchema, type SignInInput, type SignInValues } from '../schemas';

export function SignInScreen() {
  const form = useForm<SignInInput, unknown, SignInValues>({
    resolver: zodResolver(signInSchema),
    defaultValues: { email: '', password: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const signIn = useSignIn();

  // On success the session changes and the signed-out-only guard sends the user home.
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await signIn.mutateAsync(values);
    } catch (error) {
      reportFormError(error, form.setError, ['email', 'password']);
    }
  });

  return (
    <Flex direction="column" gap="4">
      <Heading as="h1" size="6" align="center">
        Sign In
      </Heading>
      <form onSubmit={onSubmit} noValidate>
        <Flex direction="column" gap="3">
          <TextInput
            label="Email"
            type="email"
            autoComplete="email"
            error={errors.email?.message}
            {...form.register('email')}
          />
          <TextInput
            label="Password"
            type="password"
            autoComplete="current-password"
            error={errors.password?.message}
            {...form.register('password')}
          />
          <RadixLink asChild size="2">
            <Link to={paths.auth.resetPassword.href()}>Forgot your password?</Link>
          </RadixLink>
          <Button type="submit" size="3" loading={isSubmitting}>
            Sign In
          </Button>
          <OrDivider />
          <Button asChild size="3" variant="outline">
            <Link to={paths.auth.signUp.href()}>Sign Up</Link>
          </Button>
        </Flex>
        <FormDevtools control={form.control} />
      </form>
    </Flex>
  );
}
