import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';

import { pb } from '@/lib/pocketbase';
import type { WebhookDeliveriesResponse, WebhookEndpointsResponse } from '@/lib/pocketbase-types';

import type { WebhookEndpointValues } from '../schemas';

/** A company's webhook endpoints (oldest first) and each endpoint's latest deliveries (newest first). */
export const webhookQueries = {
  all: () => ['webhooks'] as const,
  endpoints: (companyId: string) =>
    queryOptions({
      queryKey: [...webhookQueries.all(), 'endpoints', companyId] as const,
      queryFn: ({ signal }) =>
        pb.collection('webhook_endpoints').getFullList<WebhookEndpointsResponse>({
          filter: pb.filter('company = {:companyId}', { companyId }),
          sort: 'created',
          signal,
        }),
      // the server disables an endpoint that keeps failing, outside any request: the page follows it while open
      refetchInterval: 15_000,
    }),
  deliveries: (endpointId: string) =>
    queryOptions({
      queryKey: [...webhookQueries.all(), 'deliveries', endpointId] as const,
      queryFn: async ({ signal }) =>
        (
          await pb.collection('webhook_deliveries').getList<WebhookDeliveriesResponse>(1, 50, {
            filter: pb.filter('endpoint = {:endpointId}', { endpointId }),
            sort: '-created',
            fields: 'id,endpoint,event,status,attempts,lastStatus,latencyMs,lastError,created,updated,deliveredAt',
            skipTotal: true,
            signal,
          })
        ).items,
      // deliveries are sent by the server after the request: the list follows them while it is open
      refetchInterval: 5000,
    }),
};

/** The create response is the only one that carries the endpoint's secret. */
export type CreatedEndpoint = WebhookEndpointsResponse & { secret: string };

export function useCreateEndpoint(companyId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (values: WebhookEndpointValues) =>
      pb.collection('webhook_endpoints').create<CreatedEndpoint>({ company: companyId, url: values.url, events: values.events, enabled: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookQueries.endpoints(companyId).queryKey }),
  });
}

export function useUpdateEndpoint(companyId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, enabled }: { id: string; enabled: boolean }) =>
      pb.collection('webhook_endpoints').update<WebhookEndpointsResponse>(id, { enabled }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookQueries.endpoints(companyId).queryKey }),
  });
}

export function useDeleteEndpoint(companyId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => pb.collection('webhook_endpoints').delete(id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookQueries.endpoints(companyId).queryKey }),
  });
}

/** 'Send again': the server puts a finished delivery back in its queue (POST /api/screenroom/webhook-deliveries/{id}/send-again). */
export function useSendAgain(endpointId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: string) =>
      pb.send<WebhookDeliveriesResponse>(`/api/screenroom/webhook-deliveries/${encodeURIComponent(deliveryId)}/send-again`, { method: 'POST' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookQueries.deliveries(endpointId).queryKey }),
  });
}
