import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Flex, Text } from '@radix-ui/themes';
import { useEffect, useMemo } from 'react';
import { Controller, useForm } from 'react-hook-form';

import { FormDevtools } from '@/components/form-devtools';
import { Field } from '@/components/field';
import { TextInput } from '@/components/text-input';
import { reportFormError } from '@/components/form-error';
import { UnsavedChangesGuard } from '@/components/unsaved-changes';

import { companySchema, IMAGE_TYPES, type CompanyFormInput, type CompanyFormValues } from '../schemas';

const FIELDS = ['name', 'website', 'privacyUrl', 'logo'] as const;

/** The company form of create and edit (spec §2): logo with preview, name, website. */
export function CompanyForm({
  defaultValues,
  storedLogoUrl,
  submitLabel,
  onSubmit,
}: {
  defaultValues?: CompanyFormInput;
  /** the stored logo, shown until a new file is picked */
  storedLogoUrl?: string;
  submitLabel: string;
  onSubmit: (values: CompanyFormValues) => Promise<unknown>;
}) {
  const form = useForm<CompanyFormInput, unknown, CompanyFormValues>({
    resolver: zodResolver(companySchema),
    defaultValues: defaultValues ?? { name: '', website: '', privacyUrl: '', logo: '' },
  });
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = form;

  const submit = handleSubmit(async (values) => {
    try {
      await onSubmit(values);
    } catch (error) {
      // what was typed and picked stays in the form
      reportFormError(error, setError, FIELDS);
    }
  });

  return (
    <form onSubmit={submit} noValidate aria-label={submitLabel}>
      <Flex direction="column" gap="4">
        <Controller
          control={control}
          name="logo"
          render={({ field }) => (
            <Field id="company-logo" label="Logo" error={errors.logo?.message}>
              {(control) => (
                <LogoPicker
                  {...control}
                  value={field.value}
                  storedUrl={storedLogoUrl}
                  onChange={(file) => field.onChange(file)}
                  onBlur={field.onBlur}
                />
              )}
            </Field>
          )}
        />
        <TextInput label="Name" error={errors.name?.message} {...register('name')} autoComplete="organization" />
        <TextInput
          label="Website"
          error={errors.website?.message}
          {...register('website')}
          type="url"
          placeholder="https://"
          autoComplete="url"
        />
        <TextInput
          label="Privacy policy URL (optional)"
          error={errors.privacyUrl?.message}
          {...register('privacyUrl')}
          type="url"
          placeholder="https://"
        />
        <Flex justify="end">
          <Button type="submit" loading={isSubmitting}>
            {submitLabel}
          </Button>
        </Flex>
      </Flex>
      <FormDevtools control={form.control} />
      <UnsavedChangesGuard when={form.formState.isDirty && !isSubmitting} />
    </form>
  );
}

function LogoPicker({
  id,
  value,
  storedUrl,
  onChange,
  onBlur,
  ...aria
}: {
  id: string;
  value: File | string | undefined;
  storedUrl: string | undefined;
  onChange: (file: File | string) => void;
  onBlur: () => void;
  'aria-invalid': boolean;
  'aria-describedby'?: string;
}) {
  const previewUrl = useMemo(() => (value instanceof File ? URL.createObjectURL(value) : ''), [value]);
  useEffect(() => () => (previewUrl ? URL.revokeObjectURL(previewUrl) : undefined), [previewUrl]);
  const shown = previewUrl || storedUrl || '';

  return (
    <Flex align="center" gap="3">
      {shown ? (
        <img src={shown} alt="Company logo preview" width={64} height={64} style={{ objectFit: 'contain', borderRadius: 'var(--radius-3)' }} />
      ) : (
        <Flex width="64px" height="64px" align="center" justify="center" style={{ background: 'var(--gray-a3)', borderRadius: 'var(--radius-3)' }}>
          <Text size="1" color="gray">
            No logo
          </Text>
        </Flex>
      )}
      <input
        id={id}
        type="file"
        accept={IMAGE_TYPES.join(',')}
        onBlur={onBlur}
        onChange={(event) => {
          const file = event.target.files?.[0];
          // cancelling the picker keeps the previous choice
          if (file) onChange(file);
        }}
        {...aria}
      />
    </Flex>
  );
}
