import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Flex, Text } from '@radix-ui/themes';
import { useForm, useWatch } from 'react-hook-form';
import { toast } from '@/components/toast';

import { FormDevtools } from '@/components/form-devtools';
import { TextInput } from '@/components/text-input';
import { reportFormError } from '@/components/form-error';
import { UnsavedChangesGuard } from '@/components/unsaved-changes';
import { avatarUrl } from '@/features/auth/api/avatar-url';
import type { UsersResponse } from '@/lib/pocketbase-types';
import { useSession } from '@/lib/session';

import { useUpdateProfile } from '../api/update-profile';
import { AvatarPicker } from '../components/avatar-picker';
import { PreferencesLayout } from '../components/preferences-layout';
import { profileSchema, type ProfileInput, type ProfileValues } from '../schemas';

export const PROFILE_SAVED_MESSAGE = 'Your profile was saved';

export function ProfileScreen() {
  const { user } = useSession();
  if (!user) return null;
  // A new form when another user signs in, so it never shows the previous user's values.
  return <ProfileForm key={user.id} user={user} />;
}

function ProfileForm({ user }: { user: UsersResponse }) {
  const form = useForm<ProfileInput, unknown, ProfileValues>({
    resolver: zodResolver(profileSchema),
    defaultValues: {
      id: user.id,
      email: user.email,
      firstName: user.firstName,
      lastName: user.lastName,
      completionMails: !user.completionMailsOff,
    },
  });
  const { errors, isSubmitting } = form.formState;
  const avatar = useWatch({ control: form.control, name: 'avatar' });
  const updateProfile = useUpdateProfile(user.email);

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const { emailChangeRequested } = await updateProfile.mutateAsync(values);
      toast.success(PROFILE_SAVED_MESSAGE);
      if (emailChangeRequested) toast.info(`We sent a link to ${values.email} to confirm your new email`);
      form.reset({ ...values, email: user.email, avatar: undefined });
    } catch (error) {
      const fields = ['email', 'firstName', 'lastName', 'avatar'] as const;
      reportFormError(error, form.setError, fields);
    }
  });

  return (
    <PreferencesLayout title="Profile">
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
          <AvatarPicker
            file={avatar}
            storedUrl={avatarUrl(user)}
            initials={`${user.firstName.charAt(0)}${user.lastName.charAt(0)}`.toUpperCase()}
            error={errors.avatar?.message}
            onPick={(file) => form.setValue('avatar', file, { shouldDirty: true, shouldValidate: true })}
          />
          <Text as="label" size="2">
            <Flex gap="2" align="center">
              {/* Native input: Radix's checkbox measures itself with ResizeObserver. */}
              <input type="checkbox" {...form.register('completionMails')} />
              E-mail me when a candidate finishes an interview
            </Flex>
          </Text>
          <Flex justify="end">
            <Button type="submit" loading={isSubmitting}>
              Save
            </Button>
          </Flex>
        </Flex>
        <FormDevtools control={form.control} />
        <UnsavedChangesGuard when={form.formState.isDirty && !isSubmitting} />
      </form>
    </PreferencesLayout>
  );
}
