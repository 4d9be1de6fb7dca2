import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';

import { pb } from '@/lib/pocketbase';
import type { DecisionMessagesResponse } from '@/lib/pocketbase-types';

import type { DecisionKind, DecisionMessagePreview } from './decision-templates';

const candidatePath = (candidateId: string) => `/api/screenroom/candidates/${encodeURIComponent(candidateId)}/decision-message`;

/** What was sent to a candidate (decision_messages, newest first), and the e-mail a send would queue now. */
export const decisionMessageQueries = {
  all: () => ['decision-messages'] as const,
  lists: () => [...decisionMessageQueries.all(), 'list'] as const,
  list: (candidateId: string) =>
    queryOptions({
      queryKey: [...decisionMessageQueries.lists(), candidateId] as const,
      queryFn: ({ signal }) =>
        pb.collection('decision_messages').getFullList<DecisionMessagesResponse>({
          filter: pb.filter('candidate = {:candidateId}', { candidateId }),
          sort: '-sentAt',
          signal,
        }),
    }),
  /** A read that writes nothing (POST only for its body): the server applies every rule of the send to it. */
  preview: (candidateId: string, kind: DecisionKind) =>
    queryOptions({
      queryKey: [...decisionMessageQueries.all(), 'preview', candidateId, kind] as const,
      queryFn: ({ signal }) => pb.send<DecisionMessagePreview>(`${candidatePath(candidateId)}/preview`, { method: 'POST', body: { kind }, signal }),
      staleTime: 0,
      gcTime: 0,
      retry: false,
    }),
};

/** Sends the candidate the message of their decision (queued by the server, recorded, announced to webhooks). */
export function useSendDecisionMessage(candidateId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (kind: DecisionKind) => pb.send<DecisionMessagesResponse>(candidatePath(candidateId), { method: 'POST', body: { kind } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: decisionMessageQueries.list(candidateId).queryKey }),
  });
}
