import { Button, Flex, Heading } from '@radix-ui/themes';
import { useForm } from 'react-hook-form';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';

import { FormDevtools } from '@/components/form-devtools';
import { paths } from '@/config/paths';
import { reportFormError } from '@/components/form-error';

import { useSignUp, type SignUpResult } from '../api/sign-up';
import { CheckInbox, holdResend } from '../components/check-inbox';
import { OrDivider } from '../components/or-divider';
import { TextInput } from '@/components/text-input';
import type { SignUpInput, SignUpValues } from '../schemas';
import { lazyZodResolver } from '@/lib/lazy-resolver';

// zod and the schema load once the form is used (issue 20: a first visit does without them)
const resolver = lazyZodResolver(() => import('../schemas').then((m) => m.signUpSchema));

/** Sign-up, also the acceptance of a manager invite (`?invite=...&email=...`). */
export function SignUpScreen() {
  const [searchParams] = useSearchParams();
  const invite = searchParams.get('invite') ?? '';
  const prefilledEmail = searchParams.get('email') ?? '';
  // The account just created, waiting for its confirmation (issue 16: 'Check your inbox'), and whether its e-mail
  // was refused (security round three: the sign-up succeeded all the same).
  const [sentTo, setSentTo] = useState<Pick<SignUpResult, 'email' | 'mailRefused'> | null>(null);

  const form = useForm<SignUpInput, unknown, SignUpValues>({
    resolver,
    defaultValues: {
      firstName: '',
      lastName: '',
      email: prefilledEmail,
      password: '',
      passwordConfirm: '',
      invite: invite || undefined,
    },
  });
  const { errors, isSubmitting } = form.formState;
  const signUp = useSignUp();

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const { verified, email, mailRefused } = await signUp.mutateAsync(values);
      // Verified: the session is stored and the signed-out-only guard sends the user home. Otherwise decisions.md:
      // the 'Check your inbox' screen replaces the spec's redirect to sign-in and its toast, also when the e-mail
      // was refused (its resend then waits as long as the server said).
      if (verified) return;
      const address = email || values.email;
      if (mailRefused?.retryAfterSeconds) holdResend(address, mailRefused.retryAfterSeconds);
      setSentTo({ email: address, mailRefused });
    } catch (error) {
      const fields = ['firstName', 'lastName', 'email', 'password', 'passwordConfirm'] as const;
      reportFormError(error, form.setError, fields);
    }
  });

  if (sentTo) {
    return (
      <CheckInbox
        email={sentTo.email}
        mailRefused={sentTo.mailRefused}
        onUseAnotherAddress={() => {
          // everything else typed stays; the new address is typed where the old one was
          setSentTo(null);
          form.setValue('email', '');
          setTimeout(() => form.setFocus('email'));
        }}
      />
    );
  }

  return (
    <Flex direction="column" gap="4">
      <Heading as="h1" size="6" align="center">
        Sign Up
      </Heading>
      <form onSubmit={onSubmit} onFocus={resolver.preload} noValidate>
        <Flex direction="column" gap="3">
          <TextInput
            label="First name"
            autoComplete="given-name"
            error={errors.firstName?.message}
            {...form.register('firstName')}
          />
          <TextInput
            label="Last name"
            autoComplete="family-name"
            error={errors.lastName?.message}
            {...form.register('lastName')}
          />
          {invite ? (
            // The invite is for this address: shown, not editable, and sent from the form's default value.
            <TextInput label="Email" type="email" value={prefilledEmail} disabled readOnly error={errors.email?.message} />
          ) : (
            <TextInput
              label="Email"
              type="email"
              autoComplete="email"
              error={errors.email?.message}
              {...form.register('email')}
            />
          )}
          <TextInput
            label="Password"
            type="password"
            autoComplete="new-password"
            error={errors.password?.message}
            {...form.register('password')}
          />
          <TextInput
            label="Repeat password"
            type="password"
            autoComplete="new-password"
            error={errors.passwordConfirm?.message}
            {...form.register('passwordConfirm')}
          />
          <Button type="submit" size="3" loading={isSubmitting}>
            {invite ? 'Accept invitation' : 'Sign up'}
          </Button>
          {invite ? null : (
            <>
              <OrDivider />
              <Button asChild size="3" variant="outline">
                <Link to={paths.auth.signIn.href()}>Sign In</Link>
              </Button>
            </>
          )}
        </Flex>
        <FormDevtools control={form.control} />
      </form>
    </Flex>
  );
}
