import { z } from 'zod';

/** A comment's length limit (the comments collection's `text`, 1 to 2,000 characters). */
export const COMMENT_MAX = 2000;
/** From here on the form shows how many characters are used. */
export const COMMENT_COUNT_FROM = 1800;

export const COMMENT_REQUIRED = 'Please enter a comment';
export const COMMENT_TOO_LONG = 'Your comment must be at most 2,000 characters';

/** Characters as the server counts them (code points: an emoji is one). */
export const characterCount = (text: string) => Array.from(text).length;

/** The comment form, new or edited: whitespace alone is no comment. */
export const commentSchema = z.object({
  text: z
    .string()
    .trim()
    .min(1, COMMENT_REQUIRED)
    .refine((text) => characterCount(text) <= COMMENT_MAX, COMMENT_TOO_LONG),
});

export type CommentValues = z.output<typeof commentSchema>;
