import { z } from 'zod';

/** Spec §9: new question forms start here. */
export const DEFAULT_TIMEOUT = 5;
export const DEFAULT_TAKES = 3;
/** Switching a question's kind to video starts it at one take (spec §4). */
export const TAKES_AFTER_SWITCH = 1;
/** Issue 17 point 8: seconds a video question gives to read and prepare before recording starts by itself. */
export const DEFAULT_PREPARATION = 30;
export const PREPARATION_MAX = 300;

const PREPARATION_MESSAGE = `Please enter a preparation time of 0 to ${PREPARATION_MAX} seconds`;

const videoKindSchema = z.object({
  type: z.literal('video'),
  takes: z.coerce
    .number<number | string>({ error: 'Please enter a number of takes of at least 1' })
    .int('Please enter a whole number of takes')
    .min(1, 'Please enter a number of takes of at least 1')
    .max(5, 'Please enter a number of takes of at most 5'),
  preparation: z.coerce
    .number<number | string>({ error: PREPARATION_MESSAGE })
    .int('Please enter a whole number of seconds')
    .min(0, PREPARATION_MESSAGE)
    .max(PREPARATION_MAX, PREPARATION_MESSAGE),
});

const textKindSchema = z.object({ type: z.literal('text') });

/** The question form (spec §5, decisions.md): the question's fields plus exactly one kind. */
export const questionFormSchema = z.object({
  title: z
    .string()
    .trim()
    .min(1, 'Please enter a question title')
    .min(3, 'Please enter a question title with at least 3 characters')
    .max(100, 'Please enter a question title with at most 100 characters'),
  description: z
    .string()
    .trim()
    .min(1, 'Please enter a question description')
    .min(3, 'Please enter a question description with at least 3 characters')
    .max(1000, 'Please enter a question description with at most 1000 characters'),
  timeout: z.coerce
    .number<number | string>({ error: 'Please enter a question timeout of at least 5 seconds' })
    .int('Please enter a whole number of seconds')
    .min(5, 'Please enter a question timeout of at least 5 seconds')
    .max(600, 'Please enter a question timeout of at most 600 seconds'),
  canPreview: z.boolean(),
  kind: z.discriminatedUnion('type', [videoKindSchema, textKindSchema]),
});

export type QuestionFormInput = z.input<typeof questionFormSchema>;
export type QuestionFormValues = z.output<typeof questionFormSchema>;
export type QuestionKindType = QuestionFormValues['kind']['type'];

export const newQuestionDefaults: QuestionFormInput = {
  title: '',
  description: '',
  timeout: DEFAULT_TIMEOUT,
  canPreview: false,
  kind: { type: 'video', takes: DEFAULT_TAKES, preparation: DEFAULT_PREPARATION },
};

/**
 * The kind data after the selector switches to `type` (spec §4: video starts at 1 take, with the default preparation;
 * text has no data).
 */
export function switchedKind(type: QuestionKindType): QuestionFormInput['kind'] {
  return type === 'video' ? { type: 'video', takes: TAKES_AFTER_SWITCH, preparation: DEFAULT_PREPARATION } : { type: 'text' };
}
