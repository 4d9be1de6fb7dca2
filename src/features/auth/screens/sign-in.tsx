import { Button, Callout, Flex, Heading, Link as RadixLink, Text } from '@radix-ui/themes';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router-dom';

import { FormDevtools } from '@/components/form-devtools';
import { paths } from '@/config/paths';
import { reportFormError } from '@/components/form-error';
import { CONFIRM_EMAIL_FIRST_MESSAGE, isWrongCredentialsError, WRONG_CREDENTIALS_MESSAGE } from '@/lib/errors';

import { isUnverifiedAccountError, useSignIn } from '../api/sign-in';
import { ResendVerification, USE_ANOTHER_ADDRESS_LABEL } from '../components/check-inbox';
import { OrDivider } from '../components/or-divider';
import { TextInput } from '@/components/text-input';
import type { SignInInput, SignInValues } from '../schemas';
import { lazyZodResolver } from '@/lib/lazy-resolver';

// zod and the schema load once the form is used (issue 20: a first visit does without them)
const resolver = lazyZodResolver(() => import('../schemas').then((m) => m.signInSchema));

export function SignInScreen() {
  const form = useForm<SignInInput, unknown, SignInValues>({
    resolver,
    defaultValues: { email: '', password: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const signIn = useSignIn();
  // The address of an account whose sign-in was refused until its e-mail is confirmed (issue 13).
  const [unverifiedEmail, setUnverifiedEmail] = useState<string | null>(null);

  // On success the session changes and the signed-out-only guard sends the user home.
  const onSubmit = form.handleSubmit(async (values) => {
    setUnverifiedEmail(null);
    try {
      await signIn.mutateAsync(values);
    } catch (error) {
      if (isUnverifiedAccountError(error)) setUnverifiedEmail(values.email);
      // a wrong e-mail or password: said under the password, which is the likelier mistake (issue 16)
      else if (isWrongCredentialsError(error)) {
        console.error(error);
        form.setError('password', { type: 'server', message: WRONG_CREDENTIALS_MESSAGE }, { shouldFocus: true });
      }
      else reportFormError(error, form.setError, ['email', 'password']);
    }
  });

  return (
    <Flex direction="column" gap="4">
      <Heading as="h1" size="6" align="center">
        Sign In
      </Heading>
      {unverifiedEmail ? <UnverifiedAccountNotice email={unverifiedEmail} /> : null}
      <form onSubmit={onSubmit} onFocus={resolver.preload} noValidate>
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

/** The sign-in of an account whose e-mail is not confirmed: says so in the SPA's own words, and offers a new link. */
function UnverifiedAccountNotice({ email }: { email: string }) {
  return (
    <Callout.Root color="amber" role="alert">
      <Flex direction="column" gap="2" align="stretch">
        <Callout.Text weight="bold">{CONFIRM_EMAIL_FIRST_MESSAGE}</Callout.Text>
        <Text size="2">
          Your account was created, but its e-mail address is not confirmed yet. Follow the link in the e-mail we sent
          to {email} when you signed up, then sign in.
        </Text>
        <ResendVerification email={email} color="amber" />
        <RadixLink asChild size="2">
          <Link to={paths.auth.signUp.href()}>{USE_ANOTHER_ADDRESS_LABEL}</Link>
        </RadixLink>
      </Flex>
    </Callout.Root>
  );
}
