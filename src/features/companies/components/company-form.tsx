import '@/components/native-select.css';

import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Flex, Heading, Text } from '@radix-ui/themes';
import { useEffect, useId, useMemo } from 'react';
import { Controller, useForm, type UseFormReturn } from 'react-hook-form';

import { FormDevtools } from '@/components/form-devtools';
import { Field } from '@/components/field';
import { TextInput } from '@/components/text-input';
import { reportFormError } from '@/components/form-error';
import { UnsavedChangesGuard } from '@/components/unsaved-changes';

import { companySchema, IMAGE_TYPES, type CompanyFormInput, type CompanyFormValues } from '../schemas';

const FIELDS = ['name', 'website', 'privacyUrl', 'logo', 'timeZone', 'mailFooterOff'] as const;

/**
 * The zones the time zone select offers: this browser's IANA names (the server carries the whole zone database, so
 * it knows them all). A stored zone the list lacks (another browser's spelling) is offered too, so saving the rest
 * never changes the zone.
 */
export function timeZoneOptions(stored: string): string[] {
  const zones = Intl.supportedValuesOf('timeZone').filter((zone) => zone !== 'UTC');
  return stored && stored !== 'UTC' && !zones.includes(stored) ? [stored, ...zones] : zones;
}

/**
 * The company form of create and edit (spec §2): logo with preview, name, website; on the settings screen
 * (`mailSettings`) also the company's e-mail settings.
 */
export function CompanyForm({
  defaultValues,
  storedLogoUrl,
  submitLabel,
  onSubmit,
  mailSettings = false,
}: {
  defaultValues?: CompanyFormInput;
  /** the stored logo, shown until a new file is picked */
  storedLogoUrl?: string;
  submitLabel: string;
  onSubmit: (values: CompanyFormValues) => Promise<unknown>;
  /** show the time zone of e-mails and the footer choice (the settings screen; a new company starts with UTC and the footer) */
  mailSettings?: boolean;
}) {
  const form = useForm<CompanyFormInput, unknown, CompanyFormValues>({
    resolver: zodResolver(companySchema),
    defaultValues: defaultValues ?? { name: '', website: '', privacyUrl: '', logo: '', timeZone: '', mailFooterOff: false },
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
        {mailSettings ? <MailSettingsFields form={form} /> : null}
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

/**
 * The company's e-mail settings: the time zone e-mails state times in ('' is UTC) and whether they leave out the
 * product's one footer line. E-mails are signed with the company's name either way.
 */
function MailSettingsFields({ form }: { form: UseFormReturn<CompanyFormInput, unknown, CompanyFormValues> }) {
  const id = useId();
  const {
    register,
    formState: { errors, defaultValues },
  } = form;
  const stored = defaultValues?.timeZone ?? '';
  const zones = useMemo(() => timeZoneOptions(stored), [stored]);
  return (
    <Flex direction="column" gap="3" role="group" aria-labelledby={`${id}-heading`}>
      <Heading as="h2" size="3" id={`${id}-heading`} mt="2">
        E-mails
      </Heading>
      <Field
        id={`${id}-time-zone`}
        label="Time zone"
        error={errors.timeZone?.message}
        hint="E-mails state times, such as an invitation's deadline, in this time zone, with its name. E-mails to candidates are signed with the company's name."
      >
        {(control) => (
          <select {...control} className="native-select" style={{ maxWidth: '22rem' }} {...register('timeZone')}>
            <option value="">UTC</option>
            {zones.map((zone) => (
              <option key={zone} value={zone}>
                {zone.replaceAll('_', ' ')}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Flex direction="column" gap="1">
        <Text as="label" size="2">
          <Flex gap="2" align="center">
            <input
              type="checkbox"
              aria-invalid={Boolean(errors.mailFooterOff)}
              aria-describedby={errors.mailFooterOff ? `${id}-footer-message` : undefined}
              {...register('mailFooterOff')}
            />
            Leave the Screenroom line out of e-mails
          </Flex>
        </Text>
        {errors.mailFooterOff?.message ? (
          <Text id={`${id}-footer-message`} size="1" color="red" role="alert">
            {errors.mailFooterOff.message}
          </Text>
        ) : null}
      </Flex>
    </Flex>
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
