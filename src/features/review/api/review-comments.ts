import { queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';

import { pb } from '@/lib/pocketbase';
import type { CommentsResponse, UsersResponse } from '@/lib/pocketbase-types';

/** A comment with its author (name and avatar: fellow managers may read them, decisions.md "Access model"). */
export type ReviewComment = CommentsResponse<{ author?: UsersResponse }>;

/** Each comment comes with its author's user record (name, avatar). */
export const AUTHOR_EXPAND = 'author';

/** The candidate's comment thread, oldest first (the newest at the bottom, by the form). */
export const commentQueries = {
  all: () => ['review-comments'] as const,
  list: (candidateId: string) =>
    queryOptions({
      queryKey: [...commentQueries.all(), candidateId] as const,
      queryFn: ({ signal }) =>
        pb.collection('comments').getFullList<ReviewComment>({
          filter: pb.filter('candidate = {:candidateId}', { candidateId }),
          sort: 'created,id',
          expand: AUTHOR_EXPAND,
          signal,
        }),
    }),
};

function byCreated(a: ReviewComment, b: ReviewComment): number {
  return a.created.localeCompare(b.created) || a.id.localeCompare(b.id);
}

/** A comment the server sent (a write's answer or a realtime event) put into the cached thread, in order. */
export function putComment(queryClient: QueryClient, candidateId: string, record: ReviewComment): boolean {
  let known = false;
  queryClient.setQueryData(commentQueries.list(candidateId).queryKey, (list) => {
    if (!list) return list;
    known = true;
    const current = list.find((comment) => comment.id === record.id);
    if (current && current.updated > record.updated) return list;
    // an event without its author expanded keeps the one already known
    const merged = current && !record.expand?.author ? { ...record, expand: current.expand } : record;
    return [...list.filter((comment) => comment.id !== record.id), merged].sort(byCreated);
  });
  return known;
}

export function dropComment(queryClient: QueryClient, candidateId: string, commentId: string): void {
  queryClient.setQueryData(commentQueries.list(candidateId).queryKey, (list) => list?.filter((comment) => comment.id !== commentId));
}

/** Adds a comment by the signed-in manager (the server refuses any other author, and whitespace-only text). */
export function useAddComment(candidateId: string, authorId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (text: string) =>
      pb.collection('comments').create<ReviewComment>({ candidate: candidateId, author: authorId, text }, { expand: AUTHOR_EXPAND }),
    onSuccess: (record) => {
      putComment(queryClient, candidateId, record);
    },
  });
}

/** Changes the text of one of the signed-in manager's own comments. */
export function useEditComment(candidateId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, text }: { id: string; text: string }) =>
      pb.collection('comments').update<ReviewComment>(id, { text }, { expand: AUTHOR_EXPAND }),
    onSuccess: (record) => {
      putComment(queryClient, candidateId, record);
    },
  });
}

/** Deletes one of the signed-in manager's own comments. */
export function useDeleteComment(candidateId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => pb.collection('comments').delete(id).then(() => id),
    onSuccess: (id) => dropComment(queryClient, candidateId, id),
  });
}
