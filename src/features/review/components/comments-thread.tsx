import { zodResolver } from '@hookform/resolvers/zod';
import { AlertDialog, Avatar, Button, Flex, Heading, Spinner, Text, TextArea } from '@radix-ui/themes';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ClientResponseError } from 'pocketbase';
import { useId, useState } from 'react';
import { useForm, useWatch, type UseFormSetError } from 'react-hook-form';

import { AppTheme } from '@/components/app-theme';
import { FormDevtools } from '@/components/form-devtools';
import { LoadError } from '@/components/load-error';
import { showErrorToast } from '@/components/toaster';
import { GENERIC_ERROR_MESSAGE } from '@/lib/errors';
import { useSignedInUser } from '@/lib/session';
import { fullName } from '@/lib/person-name';

import { managerAvatarUrl } from '../api/manager-avatar';
import {
  commentQueries,
  dropComment,
  useAddComment,
  useDeleteComment,
  useEditComment,
  type ReviewComment,
} from '../api/review-comments';
import {
  characterCount,
  COMMENT_COUNT_FROM,
  COMMENT_MAX,
  COMMENT_REQUIRED,
  COMMENT_TOO_LONG,
  commentSchema,
  type CommentValues,
} from '../schemas';

import { RelativeTime } from './relative-time';

/**
 * The managers' thread about a candidate (issue 15): each comment with its author's name and avatar and its time,
 * oldest first, the form to add one at the bottom. The author edits or deletes their own (the server allows nobody
 * else); other managers' new, changed and deleted comments arrive live (review-feedback-updates.ts).
 */
export function CommentsThread({ candidateId }: { candidateId: string }) {
  const comments = useQuery(commentQueries.list(candidateId));
  const headingId = useId();

  return (
    <Flex asChild direction="column" gap="3">
      <section aria-labelledby={headingId}>
        <Heading as="h2" size="4" id={headingId}>
          Comments
        </Heading>
        {comments.isPending ? (
          <Flex align="center" gap="2">
            <Spinner />
            <Text size="2" color="gray">
              Loading comments…
            </Text>
          </Flex>
        ) : comments.isError ? (
          <LoadError error={comments.error} />
        ) : comments.data.length === 0 ? (
          <Text size="2" color="gray">
            No comments yet
          </Text>
        ) : (
          <Flex asChild direction="column" gap="4">
            <ol aria-label="Comments" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
              {comments.data.map((comment) => (
                <li key={comment.id}>
                  <CommentItem candidateId={candidateId} comment={comment} />
                </li>
              ))}
            </ol>
          </Flex>
        )}
        <AddCommentForm candidateId={candidateId} />
      </section>
    </Flex>
  );
}

export function authorName(comment: ReviewComment): string {
  const author = comment.expand?.author;
  const name = author ? fullName(author) : '';
  return name || 'A former manager';
}

function CommentItem({ candidateId, comment }: { candidateId: string; comment: ReviewComment }) {
  const user = useSignedInUser();
  const [editing, setEditing] = useState(false);
  const author = comment.expand?.author;
  const name = authorName(comment);
  const own = comment.author === user.id;
  const initials = author ? `${author.firstName.charAt(0)}${author.lastName.charAt(0)}`.toUpperCase() : '?';

  return (
    <article aria-label={`Comment by ${name}`}>
      <Flex gap="3" align="start">
        <Avatar size="2" radius="full" src={author ? managerAvatarUrl(author) : undefined} fallback={initials} alt="" />
        <Flex direction="column" gap="1" style={{ flex: 1, minWidth: 0 }}>
          <Flex gap="2" align="baseline" wrap="wrap">
            <Text size="2" weight="bold">
              {name}
              {own ? ' (you)' : ''}
            </Text>
            <Text size="1" color="gray">
              <RelativeTime value={comment.created} />
              {comment.updated > comment.created ? ' · edited' : ''}
            </Text>
          </Flex>
          {editing ? (
            <EditCommentForm candidateId={candidateId} comment={comment} onDone={() => setEditing(false)} />
          ) : (
            <>
              <Text as="p" size="2" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                {comment.text}
              </Text>
              {own && (
                <Flex gap="3">
                  <Button type="button" size="1" variant="ghost" onClick={() => setEditing(true)}>
                    Edit
                  </Button>
                  <DeleteCommentButton candidateId={candidateId} comment={comment} />
                </Flex>
              )}
            </>
          )}
        </Flex>
      </Flex>
    </article>
  );
}

function DeleteCommentButton({ candidateId, comment }: { candidateId: string; comment: ReviewComment }) {
  const queryClient = useQueryClient();
  const remove = useDeleteComment(candidateId);
  return (
    <AppTheme>
      <AlertDialog.Root>
        <AlertDialog.Trigger>
          <Button type="button" size="1" variant="ghost" color="red">
            Delete
          </Button>
        </AlertDialog.Trigger>
        <AlertDialog.Content maxWidth="420px">
          <AlertDialog.Title>Delete this comment?</AlertDialog.Title>
          <AlertDialog.Description size="2">Your comment will be removed for every manager.</AlertDialog.Description>
          <Flex gap="3" mt="4" justify="end">
            <AlertDialog.Cancel>
              <Button variant="soft" color="gray">
                Cancel
              </Button>
            </AlertDialog.Cancel>
            <AlertDialog.Action>
              <Button
                color="red"
                onClick={() =>
                  remove.mutate(comment.id, {
                    onError: (error) => {
                      if (gone(error)) dropComment(queryClient, candidateId, comment.id);
                      else reportUnknown(error);
                    },
                  })
                }
              >
                Delete comment
              </Button>
            </AlertDialog.Action>
          </Flex>
        </AlertDialog.Content>
      </AlertDialog.Root>
    </AppTheme>
  );
}

function AddCommentForm({ candidateId }: { candidateId: string }) {
  const user = useSignedInUser();
  const add = useAddComment(candidateId, user.id);
  return (
    <CommentEditor
      label="Add a comment"
      submitLabel="Add comment"
      defaultText=""
      onSubmit={async ({ text }, { reset, setError }) => {
        try {
          await add.mutateAsync(text);
          reset();
        } catch (error) {
          reportCommentError(error, setError);
        }
      }}
    />
  );
}

function EditCommentForm({ candidateId, comment, onDone }: { candidateId: string; comment: ReviewComment; onDone: () => void }) {
  const queryClient = useQueryClient();
  const edit = useEditComment(candidateId);
  return (
    <CommentEditor
      label="Edit comment"
      submitLabel="Save"
      defaultText={comment.text}
      autoFocus
      onCancel={onDone}
      onSubmit={async ({ text }, { setError }) => {
        try {
          await edit.mutateAsync({ id: comment.id, text });
          onDone();
        } catch (error) {
          if (gone(error)) {
            showErrorToast('This comment has been deleted');
            dropComment(queryClient, candidateId, comment.id);
          } else reportCommentError(error, setError);
        }
      }}
    />
  );
}

type CommentEditorProps = {
  label: string;
  submitLabel: string;
  defaultText: string;
  autoFocus?: boolean;
  onCancel?: () => void;
  onSubmit: (values: CommentValues, form: { reset: () => void; setError: UseFormSetError<CommentValues> }) => Promise<void>;
};

/** A comment's text field with its validation and, near the limit, the characters used. */
function CommentEditor({ label, submitLabel, defaultText, autoFocus, onCancel, onSubmit }: CommentEditorProps) {
  const id = useId();
  const form = useForm<CommentValues>({ resolver: zodResolver(commentSchema), defaultValues: { text: defaultText } });
  const {
    register,
    formState: { errors, isSubmitting },
  } = form;
  const text = useWatch({ control: form.control, name: 'text' });
  const count = characterCount(text);
  const error = errors.text?.message;
  const describedBy = [error ? `${id}-error` : '', count >= COMMENT_COUNT_FROM ? `${id}-count` : ''].filter(Boolean).join(' ');

  return (
    <form
      noValidate
      onSubmit={form.handleSubmit((values) => onSubmit(values, { reset: () => form.reset({ text: '' }), setError: form.setError }))}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && onCancel) onCancel();
      }}
    >
      <Flex direction="column" gap="2">
        <Text as="label" htmlFor={id} size="2" weight="medium">
          {label}
        </Text>
        <TextArea
          id={id}
          rows={3}
          // the edit form replaces the text the manager chose to edit: the cursor goes there
          autoFocus={autoFocus}
          aria-invalid={Boolean(error)}
          aria-describedby={describedBy || undefined}
          {...register('text')}
        />
        <Flex justify="between" gap="3">
          {error ? (
            <Text id={`${id}-error`} size="1" color="red" role="alert">
              {error}
            </Text>
          ) : (
            <span />
          )}
          {count >= COMMENT_COUNT_FROM && (
            <Text id={`${id}-count`} size="1" color={count > COMMENT_MAX ? 'red' : 'gray'}>
              {count.toLocaleString('en-US')} / {COMMENT_MAX.toLocaleString('en-US')} characters
            </Text>
          )}
        </Flex>
        <Flex gap="2">
          <Button type="submit" loading={isSubmitting}>
            {submitLabel}
          </Button>
          {onCancel && (
            <Button type="button" variant="soft" color="gray" onClick={onCancel}>
              Cancel
            </Button>
          )}
        </Flex>
      </Flex>
      <FormDevtools control={form.control} />
    </form>
  );
}

function gone(error: unknown): boolean {
  return error instanceof ClientResponseError && error.status === 404;
}

function reportUnknown(error: unknown): void {
  console.error(error);
  showErrorToast(GENERIC_ERROR_MESSAGE);
}

/** The server's refusal of the text goes under the field, in the form's own words; anything else is a toast. */
function reportCommentError(error: unknown, setError: UseFormSetError<CommentValues>): void {
  const data: unknown = error instanceof ClientResponseError ? error.response.data : undefined;
  const field = typeof data === 'object' && data !== null ? (data as Record<string, unknown>).text : undefined;
  if (typeof field === 'object' && field !== null) {
    const code = (field as { code?: unknown }).code;
    console.error(error);
    setError('text', { type: 'server', message: code === 'validation_max_text_constraint' ? COMMENT_TOO_LONG : COMMENT_REQUIRED }, { shouldFocus: true });
    return;
  }
  reportUnknown(error);
}
