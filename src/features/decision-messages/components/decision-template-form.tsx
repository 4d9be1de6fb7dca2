import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Card, Flex, Heading, Text, TextArea } from '@radix-ui/themes';
import { useEffect, useId, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';

import { ConfirmDialog } from '@/components/confirm-dialog';
import { Field } from '@/components/field';
import { reportFormError } from '@/components/form-error';
import { TextInput } from '@/components/text-input';
import { toast } from '@/components/toast';
import { getErrorMessage } from '@/lib/errors';
import { AUTONYMS, textDirection } from '@/lib/locales';

import {
  DECISION_KINDS,
  usePreviewDecisionTemplate,
  useResetDecisionTemplate,
  useSaveDecisionTemplate,
  type DecisionMessagePreview,
  type DecisionTemplate,
  type TemplateText,
} from '../api/decision-templates';
import { decisionTemplateSchema, type DecisionTemplateValues } from '../schemas';

import { MessagePreview } from './message-preview';

const FIELDS = ['subject', 'body'] as const;

/**
 * One kind's text in one language: edited, previewed as the e-mail it makes, saved as the company's own, or given
 * back to the product's default. `draft` is what was typed before the manager looked at another text; every change
 * is reported through `onDraft` (null once nothing differs from what is stored).
 */
export function DecisionTemplateForm({
  companyId,
  template,
  draft,
  onDraft,
}: {
  companyId: string;
  template: DecisionTemplate;
  draft: TemplateText | null;
  onDraft: (text: TemplateText | null) => void;
}) {
  const id = useId();
  const stored = { subject: template.subject, body: template.body };
  const form = useForm<DecisionTemplateValues>({ resolver: zodResolver(decisionTemplateSchema), defaultValues: stored });
  const {
    register,
    handleSubmit,
    setError,
    setValue,
    control,
    formState: { errors, isSubmitting },
  } = form;
  const save = useSaveDecisionTemplate(companyId);
  const previewing = usePreviewDecisionTemplate(companyId);
  const [preview, setPreview] = useState<DecisionMessagePreview | null>(null);

  // a draft comes back as changes to the stored text, so it still counts as unsaved
  useEffect(() => {
    if (!draft) return;
    setValue('subject', draft.subject, { shouldDirty: true });
    setValue('body', draft.body, { shouldDirty: true });
    // once, when this text is opened
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const [subject, body] = useWatch({ control, name: ['subject', 'body'] });
  useEffect(() => {
    const changed = subject !== template.subject || body !== template.body;
    onDraft(changed ? { subject, body } : null);
    // a preview of other words would mislead
    setPreview(null);
  }, [subject, body, template.subject, template.body, onDraft]);

  const kindLabel = DECISION_KINDS.find((kind) => kind.value === template.kind)?.label ?? template.kind;
  const language = template.language;
  const dir = textDirection(language);

  const submit = handleSubmit(async (values) => {
    try {
      await save.mutateAsync({ template, text: values });
      onDraft(null);
      toast.success(`${kindLabel} message in ${AUTONYMS[language]} saved`);
    } catch (error) {
      reportFormError(error, setError, FIELDS);
    }
  });

  const showPreview = handleSubmit(async (values) => {
    try {
      setPreview(await previewing.mutateAsync({ kind: template.kind, language, ...values }));
    } catch (error) {
      reportFormError(error, setError, FIELDS);
    }
  });

  return (
    <form onSubmit={submit} noValidate aria-label={`${kindLabel} message in ${AUTONYMS[language]}`}>
      <Flex direction="column" gap="3">
        <Heading as="h2" size="3">
          {kindLabel} message in {AUTONYMS[language]}
        </Heading>
        <Text size="2" color="gray" data-testid="template-source">
          {template.custom ? 'Your company’s own text.' : 'Screenroom’s default text: save it to make it your own.'}
        </Text>
        <TextInput id={`${id}-subject`} label="Subject" lang={language} dir={dir} error={errors.subject?.message} {...register('subject')} />
        <Field id={`${id}-body`} label="Message" error={errors.body?.message}>
          {(fieldControl) => <TextArea {...fieldControl} rows={10} lang={language} dir={dir} {...register('body')} />}
        </Field>
        <Flex gap="3" justify="end" wrap="wrap">
          <ResetButton companyId={companyId} template={template} onDefault={() => form.reset({ subject: template.defaultSubject, body: template.defaultBody }, { keepDefaultValues: true })} />
          <Button type="button" variant="soft" loading={previewing.isPending} onClick={() => void showPreview()}>
            Preview
          </Button>
          <Button type="submit" loading={isSubmitting}>
            Save
          </Button>
        </Flex>
        {preview ? (
          <Card aria-label="Preview">
            <MessagePreview preview={preview} note="Shown for a sample candidate, Alex, invited to a Product Designer job." />
          </Card>
        ) : null}
      </Flex>
    </form>
  );
}

/**
 * Back to Screenroom's default text: the company's own text is deleted (confirmed first); a default being edited
 * gets its words back.
 */
function ResetButton({ companyId, template, onDefault }: { companyId: string; template: DecisionTemplate; onDefault: () => void }) {
  const [open, setOpen] = useState(false);
  const reset = useResetDecisionTemplate(companyId);
  if (!template.custom) {
    return (
      <Button type="button" variant="ghost" color="gray" onClick={onDefault}>
        Use the default text
      </Button>
    );
  }
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={setOpen}
      trigger={
        <Button type="button" variant="ghost" color="gray">
          Use the default text
        </Button>
      }
      title="Use the default text?"
      errorMessage={getErrorMessage}
      actions={[
        {
          label: 'Use the default text',
          run: async () => {
            await reset.mutateAsync(template.id);
            toast.success('The default text is used again');
          },
        },
      ]}
    >
      <Text>
        Your company’s text for this message in {AUTONYMS[template.language]} is deleted, and candidates get Screenroom’s default text in
        that language instead.
      </Text>
    </ConfirmDialog>
  );
}
