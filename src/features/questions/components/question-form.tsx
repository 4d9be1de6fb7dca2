import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Flex, Radio, Text, TextArea, TextField } from '@radix-ui/themes';
import { useId, type ReactNode } from 'react';
import { useForm, useWatch } from 'react-hook-form';

import { FormDevtools } from '@/components/form-devtools';
import { reportFormError } from '@/components/form-error';

import {
  newQuestionDefaults,
  PREPARATION_MAX,
  questionFormSchema,
  switchedKind,
  type QuestionFormInput,
  type QuestionFormValues,
} from '../schemas';

import { Field } from '@/components/field';
import { TextInput } from '@/components/text-input';
import { UnsavedChangesGuard } from '@/components/unsaved-changes';

type QuestionFormProps = {
  /** A stored question's values; a new question's defaults (spec §9) when left out. */
  defaultValues?: QuestionFormInput;
  submitLabel: string;
  /** Saves the values; a thrown server error lands under its field, or in a toast. */
  onSubmit: (values: QuestionFormValues) => Promise<unknown>;
  /** The 'Cancel' control, placed before the submit button. */
  cancel: ReactNode;
  /** Ask before leaving with unsaved changes (issue 16); off in the job form's dialog, whose job form asks. */
  guardLeaving?: boolean;
};

const SERVER_FIELDS = ['title', 'description', 'timeout', 'canPreview', 'kind'] as const;

/** The question form of the new and edit screens and of a job's 'Create new question' dialog. */
export function QuestionForm({
  defaultValues = newQuestionDefaults,
  submitLabel,
  onSubmit,
  cancel,
  guardLeaving = true,
}: QuestionFormProps) {
  const id = useId();
  const form = useForm<QuestionFormInput, unknown, QuestionFormValues>({
    resolver: zodResolver(questionFormSchema),
    defaultValues,
  });
  const {
    register,
    control,
    formState: { errors, isSubmitting },
  } = form;
  const kind = useWatch({ control, name: 'kind' });
  const videoErrors = errors.kind as { takes?: { message?: string }; preparation?: { message?: string } } | undefined;
  const takesError = videoErrors?.takes;
  const preparationError = videoErrors?.preparation;

  async function submit(values: QuestionFormValues) {
    try {
      await onSubmit(values);
    } catch (error) {
      reportFormError(error, form.setError, SERVER_FIELDS);
    }
  }

  return (
    <form
      noValidate
      // The job form opens this form in a dialog: its portal keeps the DOM apart, but React events still bubble
      // to the job's <form>, which must not submit too.
      onSubmit={(event) => {
        event.stopPropagation();
        void form.handleSubmit(submit)(event);
      }}
    >
      <Flex direction="column" gap="4">
        <TextInput id={`${id}-title`} label="Title" error={errors.title?.message} {...register('title')} />

        <Field id={`${id}-description`} label="Description" error={errors.description?.message}>
          {(control) => <TextArea {...control} rows={4} {...register('description')} />}
        </Field>

        <TextInput id={`${id}-timeout`} label="Timeout (seconds)" error={errors.timeout?.message} type="number" inputMode="numeric" {...register('timeout')} />

        <Text as="label" size="2">
          <Flex gap="2" align="center">
            {/* Native inputs: Radix's checkbox and radio primitives measure themselves with ResizeObserver. */}
            <input type="checkbox" {...register('canPreview')} />
            Candidates can preview the question before answering
          </Flex>
        </Text>

        <Flex direction="column" gap="2" role="group" aria-labelledby={`${id}-kind`}>
          <Text id={`${id}-kind`} size="2" weight="medium">
            Kind
          </Text>
          <Flex gap="4">
            {(['video', 'text'] as const).map((type) => (
              <Text as="label" size="2" key={type}>
                <Flex gap="2" align="center">
                  <Radio
                    name={`${id}-kind`}
                    value={type}
                    checked={kind.type === type}
                    onValueChange={() => {
                      // only a real switch resets the kind's data (a repeated click on the checked kind is none)
                      if (form.getValues('kind').type !== type) {
                        form.setValue('kind', switchedKind(type), { shouldDirty: true, shouldValidate: false });
                      }
                    }}
                  />
                  {type === 'video' ? 'Video' : 'Text'}
                </Flex>
              </Text>
            ))}
          </Flex>
        </Flex>

        {/* the server's refusal to change the kind of an answered question (issue 16) */}
        {errors.kind?.message && (
          <Text size="1" color="red" role="alert">
            {errors.kind.message}
          </Text>
        )}

        {kind.type === 'video' ? (
          <>
            <TextInput id={`${id}-takes`} label="Takes" error={takesError?.message} type="number" inputMode="numeric" {...register('kind.takes')} />
            <Field
              id={`${id}-preparation`}
              label="Preparation time (seconds)"
              error={preparationError?.message}
              hint="Time to read the question before recording starts by itself; 0 starts it at once."
            >
              {(control) => (
                <TextField.Root {...control} type="number" inputMode="numeric" min={0} max={PREPARATION_MAX} {...register('kind.preparation')} />
              )}
            </Field>
          </>
        ) : null}

        <Flex gap="3" justify="end">
          {cancel}
          <Button type="submit" loading={isSubmitting}>
            {submitLabel}
          </Button>
        </Flex>
      </Flex>
      <FormDevtools control={form.control} />
      <UnsavedChangesGuard when={guardLeaving && form.formState.isDirty && !isSubmitting} />
    </form>
  );
}
