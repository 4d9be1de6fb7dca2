import { useMutation, useQueryClient } from '@tanstack/react-query';

import { pb } from '@/lib/pocketbase';
import type { WebhookDeliveriesResponse } from '@/lib/pocketbase-types';

import { webhookQueries } from './webhook-queries';

/**
 * 'Send a test event': the server sends a signed webhook.test event to the endpoint now and answers with its
 * delivery once the attempt is over (POST /api/screenroom/webhook-endpoints/{id}/test); the delivery log shows it too.
 */
export function useSendTestEvent(endpointId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      pb.send<WebhookDeliveriesResponse>(`/api/screenroom/webhook-endpoints/${encodeURIComponent(endpointId)}/test`, { method: 'POST' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookQueries.deliveries(endpointId).queryKey }),
  });
}
