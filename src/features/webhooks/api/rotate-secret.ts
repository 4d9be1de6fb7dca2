import { useMutation, useQueryClient } from '@tanstack/react-query';

import { pb } from '@/lib/pocketbase';

import { type CreatedEndpoint, webhookQueries } from './webhook-queries';

/**
 * 'Rotate secret': a new signing secret, in this response only (POST /api/screenroom/webhook-endpoints/{id}/rotate-secret);
 * the replaced one also signs until `previousSecretUntil`.
 */
export function useRotateSecret(companyId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (endpointId: string) =>
      pb.send<CreatedEndpoint>(`/api/screenroom/webhook-endpoints/${encodeURIComponent(endpointId)}/rotate-secret`, { method: 'POST' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookQueries.endpoints(companyId).queryKey }),
  });
}
