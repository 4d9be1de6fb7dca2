import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Flex, Text, TextArea, TextField } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import { useId, useMemo, type ReactNode } from 'react';
import { Controller, useForm, useWatch, type Control } from 'react-hook-form';

import '@/components/native-select.css';
import { FormDevtools } from '@/components/form-devtools';
import { questionQueries } from '@/features/questions/api/question-queries';
import { Field } from '@/components/field';
import { TextInput } from '@/components/text-input';
import { reportFormError } from '@/components/form-error';
import { UnsavedChangesGuard } from '@/components/unsaved-changes';
import { AUTONYMS, LOCALES } from '@/lib/locales';
import type { QuestionsResponse } from '@/lib/pocketbase-types';

import { jobFormSchema, RESPONSE_DAYS_MAX, WELCOME_MESSAGE_MAX, type JobFormInput, type JobFormValues } from '../schemas';

import { CreateQuestionDialog } from './create-question-dialog';
import { QuestionPickerDialog } from './question-picker-dialog';
import { SortableQuestionList, type ListedQuestion } from './sortable-question-list';

type JobFormProps = {
  companyId: string;
  defaultValues: JobFormInput;
  /** Questions already known (the edited job's), so their titles show before the bank has loaded. */
  knownQuestions?: QuestionsResponse[];
  submitLabel: string;
  onSubmit: (values: JobFormValues) => Promise<unknown>;
  cancel: ReactNode;
};

const SERVER_FIELDS = ['title', 'description', 'location', 'welcomeMessage', 'responseDays', 'language', 'questions'] as const;
/** The counter shows from this many characters on: near the limit, not as noise while typing a short welcome. */
const WELCOME_COUNTER_FROM = WELCOME_MESSAGE_MAX - 200;

export function JobForm({ companyId, defaultValues, knownQuestions = [], submitLabel, onSubmit, cancel }: JobFormProps) {
  const id = useId();
  const form = useForm<JobFormInput, unknown, JobFormValues>({
    resolver: zodResolver(jobFormSchema),
    defaultValues,
  });
  const {
    register,
    control,
    formState: { errors, isSubmitting },
  } = form;
  const bank = useQuery(questionQueries.list(companyId));

  const titles = useMemo(() => {
    const map = new Map<string, string>();
    for (const question of [...knownQuestions, ...(bank.data ?? [])]) map.set(question.id, question.title);
    return map;
  }, [bank.data, knownQuestions]);

  async function submit(values: JobFormValues) {
    try {
      await onSubmit(values);
    } catch (error) {
      reportFormError(error, form.setError, SERVER_FIELDS);
    }
  }

  return (
    <form noValidate onSubmit={form.handleSubmit(submit)}>
      <Flex direction="column" gap="4">
        <TextInput id={`${id}-title`} label="Title" error={errors.title?.message} {...register('title')} />

        <Field id={`${id}-description`} label="Description" error={errors.description?.message}>
          {(control) => <TextArea {...control} rows={5} {...register('description')} />}
        </Field>

        <TextInput id={`${id}-location`} label="Location" error={errors.location?.message} {...register('location')} />

        <Field id={`${id}-welcome`} label="Welcome message (optional)" error={errors.welcomeMessage?.message}>
          {(control) => <TextArea {...control} rows={4} {...register('welcomeMessage')} />}
        </Field>
        <WelcomeCounter control={control} />

        <Field
          id={`${id}-response-days`}
          label="Response time (days)"
          error={errors.responseDays?.message}
          hint="Optional. Each invite's deadline is this many days after it is sent, unless you set its own. Empty or 0: no deadline."
        >
          {(control) => (
            <TextField.Root
              {...control}
              type="number"
              inputMode="numeric"
              min={0}
              max={RESPONSE_DAYS_MAX}
              style={{ maxWidth: '10rem' }}
              {...register('responseDays')}
            />
          )}
        </Field>

        <Field
          id={`${id}-language`}
          label="Candidate language"
          error={errors.language?.message}
          hint="The interview, its e-mails and the answers' transcripts are in this language. Each candidate can switch their interview to another."
        >
          {(control) => (
            // each language by its own name, as candidates see it in their switcher
            <select {...control} className="native-select" style={{ maxWidth: '16rem' }} {...register('language')}>
              {LOCALES.map((locale) => (
                <option key={locale} value={locale} lang={locale}>
                  {AUTONYMS[locale]}
                </option>
              ))}
            </select>
          )}
        </Field>

        <Controller
          control={control}
          name="questions"
          render={({ field, fieldState }) => {
            const listed: ListedQuestion[] = field.value.map((questionId) => ({
              id: questionId,
              title: titles.get(questionId) ?? 'Loading…',
            }));
            const available = (bank.data ?? [])
              .filter((question) => !question.archived && !field.value.includes(question.id))
              .map((question) => ({ id: question.id, title: question.title }));
            const add = (ids: string[]) => field.onChange([...field.value, ...ids.filter((x) => !field.value.includes(x))]);

            return (
              <Flex direction="column" gap="2" role="group" aria-labelledby={`${id}-questions`}>
                <Text id={`${id}-questions`} size="2" weight="medium">
                  Questions
                </Text>
                {listed.length > 0 ? (
                  <SortableQuestionList
                    questions={listed}
                    onReorder={field.onChange}
                    onRemove={(questionId) => field.onChange(field.value.filter((x) => x !== questionId))}
                  />
                ) : (
                  <Text size="2" color="gray">
                    No questions yet.
                  </Text>
                )}
                <Flex gap="2">
                  <QuestionPickerDialog available={available} onPick={add} />
                  <CreateQuestionDialog companyId={companyId} onCreated={(questionId) => add([questionId])} />
                </Flex>
                {fieldState.error?.message ? (
                  <Text size="1" color="red">
                    {fieldState.error.message}
                  </Text>
                ) : null}
              </Flex>
            );
          }}
        />

        <Flex gap="3" justify="end">
          {cancel}
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

/** Near the limit, how many characters the welcome message has left (announced politely to screen readers). */
function WelcomeCounter({ control }: { control: Control<JobFormInput, unknown, JobFormValues> }) {
  const value = useWatch({ control, name: 'welcomeMessage' }) ?? '';
  const length = value.length;
  if (length < WELCOME_COUNTER_FROM) return null;
  return (
    <Text size="1" color={length > WELCOME_MESSAGE_MAX ? 'red' : 'gray'} aria-live="polite" mt="-3">
      {length} of {WELCOME_MESSAGE_MAX} characters
    </Text>
  );
}
