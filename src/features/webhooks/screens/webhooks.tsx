import { zodResolver } from '@hookform/resolvers/zod';
import { Badge, Button, Callout, Code, Flex, Heading, Table, Text } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useParams } from 'react-router-dom';
import { toast } from '@/components/toast';

import { ConfirmDialog } from '@/components/confirm-dialog';
import { FormDevtools } from '@/components/form-devtools';
import { reportFormError } from '@/components/form-error';
import { QueryState } from '@/components/query-state';
import { TextInput } from '@/components/text-input';
import { CompanySettingsLayout } from '@/features/companies/components/company-settings-layout';
import { getErrorMessage } from '@/lib/errors';
import { formatDate } from '@/lib/format-date';
import type { WebhookDeliveriesResponse, WebhookEndpointsResponse } from '@/lib/pocketbase-types';

import { useRotateSecret } from '../api/rotate-secret';
import { useSendTestEvent } from '../api/send-test-event';
import {
  type CreatedEndpoint,
  useCreateEndpoint,
  useDeleteEndpoint,
  useSendAgain,
  useUpdateEndpoint,
  webhookQueries,
} from '../api/webhook-queries';
import { WEBHOOK_EVENTS, webhookEndpointSchema, type WebhookEndpointValues } from '../schemas';

/** A secret the server has just made: for a new endpoint, or by a rotation. Shown once. */
type ShownSecret = { endpoint: CreatedEndpoint; rotated: boolean };

/** Company settings, 'Webhooks' (issue 18): the company's endpoints, each with its recent deliveries. */
export function WebhooksScreen() {
  const { companyId = '' } = useParams();
  const [shown, setShown] = useState<ShownSecret | null>(null);
  return (
    <CompanySettingsLayout companyId={companyId} title="Webhooks">
      <Flex direction="column" gap="5">
        <Text as="p" size="2" color="gray">
          Screenroom sends a signed POST request to your endpoint when something happens. The API documentation
          (docs/api.md) describes the payloads and how to check the signature.
        </Text>
        {shown ? <NewSecret shown={shown} onDone={() => setShown(null)} /> : null}
        <AddEndpointForm companyId={companyId} onCreated={(endpoint) => setShown({ endpoint, rotated: false })} />
        <Endpoints companyId={companyId} onRotated={(endpoint) => setShown({ endpoint, rotated: true })} />
      </Flex>
    </CompanySettingsLayout>
  );
}

/** The secret, shown once: the server never returns it again. After a rotation, until when the old one also signs. */
function NewSecret({ shown: { endpoint, rotated }, onDone }: { shown: ShownSecret; onDone: () => void }) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(endpoint.secret);
      toast.success('Secret copied');
    } catch (error) {
      console.error(error);
      toast.error('The secret could not be copied. Select it and copy it yourself.');
    }
  };
  return (
    <Callout.Root color="amber" role="region" aria-label="Signing secret">
      <Callout.Text>
        <Flex direction="column" gap="2">
          <Text weight="bold">
            Copy the {rotated ? 'new ' : ''}signing secret of {endpoint.url} now. It will not be shown again.
          </Text>
          {rotated ? (
            <Text size="2">
              {endpoint.previousSecretUntil
                ? `Until ${formatDate(endpoint.previousSecretUntil)}, every delivery also carries a signature made with the old secret, so your receiver keeps accepting deliveries while you give it the new one.`
                : 'The old secret no longer signs: give your receiver the new one now.'}
            </Text>
          ) : null}
          <Code size="2" data-testid="webhook-secret" style={{ wordBreak: 'break-all' }}>
            {endpoint.secret}
          </Code>
          <Flex gap="2">
            <Button size="1" onClick={() => void copy()}>
              Copy secret
            </Button>
            <Button size="1" variant="soft" color="gray" onClick={onDone}>
              I have saved it
            </Button>
          </Flex>
        </Flex>
      </Callout.Text>
    </Callout.Root>
  );
}

function AddEndpointForm({ companyId, onCreated }: { companyId: string; onCreated: (endpoint: CreatedEndpoint) => void }) {
  const create = useCreateEndpoint(companyId);
  const form = useForm<WebhookEndpointValues>({
    resolver: zodResolver(webhookEndpointSchema),
    defaultValues: { url: '', events: WEBHOOK_EVENTS.map((event) => event.value) },
  });
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = form;

  const submit = handleSubmit(async (values) => {
    try {
      const endpoint = await create.mutateAsync(values);
      onCreated(endpoint);
      reset();
    } catch (error) {
      reportFormError(error, setError, ['url', 'events']);
    }
  });

  return (
    <form onSubmit={submit} noValidate aria-label="Add an endpoint">
      <Flex direction="column" gap="3">
        <Heading as="h2" size="3">
          Add an endpoint
        </Heading>
        <TextInput label="Endpoint URL" placeholder="https://example.com/webhooks/screenroom" error={errors.url?.message} {...register('url')} />
        <fieldset aria-describedby={errors.events ? 'webhook-events-message' : undefined} style={{ border: 0, padding: 0, margin: 0 }}>
          <Text as="div" size="2" weight="medium" mb="1">
            <legend>Events</legend>
          </Text>
          <Flex direction="column" gap="1">
            {WEBHOOK_EVENTS.map((event) => (
              <Text as="label" size="2" key={event.value}>
                <Flex gap="2" align="center">
                  {/* Native input: Radix's checkbox measures itself with ResizeObserver. */}
                  <input type="checkbox" value={event.value} {...register('events')} />
                  {event.label} <Code size="1">{event.value}</Code>
                </Flex>
              </Text>
            ))}
          </Flex>
          {errors.events ? (
            <Text id="webhook-events-message" size="1" color="red" role="alert">
              {errors.events.message}
            </Text>
          ) : null}
        </fieldset>
        <Flex justify="end">
          <Button type="submit" loading={isSubmitting}>
            Add endpoint
          </Button>
        </Flex>
      </Flex>
      <FormDevtools control={form.control} />
    </form>
  );
}

function Endpoints({ companyId, onRotated }: { companyId: string; onRotated: (endpoint: CreatedEndpoint) => void }) {
  const endpoints = useQuery(webhookQueries.endpoints(companyId));
  return (
    <QueryState query={endpoints}>
      {(list) =>
        list.length === 0 ? (
          <Text size="2" color="gray">
            No endpoints yet.
          </Text>
        ) : (
          <Flex direction="column" gap="5">
            {list.map((endpoint) => (
              <Endpoint key={endpoint.id} companyId={companyId} endpoint={endpoint} onRotated={onRotated} />
            ))}
          </Flex>
        )
      }
    </QueryState>
  );
}

function Endpoint({
  companyId,
  endpoint,
  onRotated,
}: {
  companyId: string;
  endpoint: WebhookEndpointsResponse;
  onRotated: (endpoint: CreatedEndpoint) => void;
}) {
  const update = useUpdateEndpoint(companyId);
  const remove = useDeleteEndpoint(companyId);
  const toggle = () =>
    update.mutate(
      { id: endpoint.id, enabled: !endpoint.enabled },
      {
        onSuccess: () => toast.success(endpoint.enabled ? 'Endpoint disabled' : 'Endpoint enabled'),
        onError: (error) => toast.error(getErrorMessage(error)),
      },
    );
  const onDelete = () => {
    if (!window.confirm(`Delete the endpoint ${endpoint.url}? Its delivery log goes with it.`)) return;
    remove.mutate(endpoint.id, {
      onSuccess: () => toast.success('Endpoint deleted'),
      onError: (error) => toast.error(getErrorMessage(error)),
    });
  };
  const failing = endpoint.enabled && endpoint.failingSince;
  return (
    <section aria-label={`Endpoint ${endpoint.url}`}>
      <Flex direction="column" gap="2">
        <Flex gap="2" align="center" wrap="wrap" justify="between">
          <Flex gap="2" align="center" wrap="wrap">
            <Code size="2" style={{ wordBreak: 'break-all' }}>
              {endpoint.url}
            </Code>
            <Badge color={endpoint.enabled ? 'green' : 'gray'}>{endpoint.enabled ? 'Enabled' : 'Disabled'}</Badge>
            {failing ? <Badge color="amber">Failing since {formatDate(endpoint.failingSince ?? '')}</Badge> : null}
          </Flex>
          <Flex gap="2" wrap="wrap">
            <RotateSecretButton companyId={companyId} endpoint={endpoint} onRotated={onRotated} />
            <Button size="1" variant="soft" onClick={toggle} loading={update.isPending}>
              {endpoint.enabled ? 'Disable' : 'Enable'}
            </Button>
            <Button size="1" variant="soft" color="red" onClick={onDelete} loading={remove.isPending}>
              Delete
            </Button>
          </Flex>
        </Flex>
        {!endpoint.enabled && endpoint.disabledAt ? <DisabledNotice endpoint={endpoint} /> : null}
        {failing ? (
          <Text size="1" color="gray">
            Every delivery has failed since then. If they keep failing, Screenroom disables the endpoint and e-mails the
            company&apos;s owner.
          </Text>
        ) : null}
        <Text size="1" color="gray">
          Events: {endpoint.events.join(', ')}
        </Text>
        <SecretAge endpoint={endpoint} />
        <TestEvent endpointId={endpoint.id} />
        <Deliveries endpointId={endpoint.id} />
      </Flex>
    </section>
  );
}

/** Why the server disabled the endpoint, and how to bring it back. */
function DisabledNotice({ endpoint }: { endpoint: WebhookEndpointsResponse }) {
  return (
    <Callout.Root color="red" role="status">
      <Callout.Text>
        Screenroom disabled this endpoint on {formatDate(endpoint.disabledAt ?? '')}
        {endpoint.failingSince ? `: every delivery had failed since ${formatDate(endpoint.failingSince)}` : ''}.
        {endpoint.disabledReason ? ` Last error: ${endpoint.disabledReason}` : ''} Nothing is sent to it while it is
        disabled. Once your receiver works, send a test event, then enable the endpoint; 'Send again' sends a failed
        delivery once more.
      </Callout.Text>
    </Callout.Root>
  );
}

/** When the secret was last rotated, and until when the one it replaced still signs. */
function SecretAge({ endpoint }: { endpoint: WebhookEndpointsResponse }) {
  if (!endpoint.secretRotatedAt) return null;
  const until = endpoint.previousSecretUntil ?? '';
  const overlapping = until && new Date(until.replace(' ', 'T')).getTime() > Date.now();
  return (
    <Text size="1" color="gray">
      Secret rotated {formatDate(endpoint.secretRotatedAt)}.
      {overlapping ? ` Deliveries also carry a signature made with the previous secret until ${formatDate(until)}.` : ''}
    </Text>
  );
}

/**
 * 'Rotate secret', after a confirmation that says how deliveries are signed from then on (what a receiver following
 * Standard Webhooks expects: any of the listed signatures may match).
 */
function RotateSecretButton({
  companyId,
  endpoint,
  onRotated,
}: {
  companyId: string;
  endpoint: WebhookEndpointsResponse;
  onRotated: (endpoint: CreatedEndpoint) => void;
}) {
  const [open, setOpen] = useState(false);
  const rotate = useRotateSecret(companyId);
  return (
    <ConfirmDialog
      trigger={
        <Button size="1" variant="soft">
          Rotate secret
        </Button>
      }
      open={open}
      onOpenChange={setOpen}
      title="Rotate the signing secret?"
      actions={[
        {
          label: 'Rotate secret',
          run: async () => {
            onRotated(await rotate.mutateAsync(endpoint.id));
            toast.success('The secret was rotated');
          },
        },
      ]}
      errorMessage={(error) => getErrorMessage(error)}
    >
      A new secret is made for {endpoint.url} and shown once. Every delivery sent from now on is signed with it, retries
      and &apos;Send again&apos; of earlier events included. For 24 hours (the server&apos;s default) each delivery also
      carries a second signature made with the current secret, as Standard Webhooks allows (the webhook-signature
      header lists both), so your receiver keeps accepting deliveries until you give it the new secret. Rotating again in
      that time stops the current secret at once.
    </ConfirmDialog>
  );
}

/** 'Send a test event' and how it went: delivered with its HTTP status and time, or the reason it failed. */
function TestEvent({ endpointId }: { endpointId: string }) {
  const test = useSendTestEvent(endpointId);
  const result = test.data;
  const send = () => test.mutate(undefined, { onError: (error) => toast.error(getErrorMessage(error)) });
  return (
    <Flex gap="2" align="center" wrap="wrap">
      <Button size="1" variant="soft" onClick={send} loading={test.isPending}>
        Send a test event
      </Button>
      <Text size="1" role="status" color={result ? (result.status === 'succeeded' ? 'green' : 'red') : undefined}>
        {test.isPending
          ? 'Sending a test event…'
          : result
            ? result.status === 'succeeded'
              ? `Test event delivered: HTTP ${result.lastStatus} in ${result.latencyMs} ms.`
              : `Test event failed: ${result.lastError}`
            : ''}
      </Text>
    </Flex>
  );
}

const STATUS_COLORS = { pending: 'amber', succeeded: 'green', failed: 'red' } as const;

function Deliveries({ endpointId }: { endpointId: string }) {
  const deliveries = useQuery(webhookQueries.deliveries(endpointId));
  const sendAgain = useSendAgain(endpointId);
  return (
    <QueryState query={deliveries}>
      {(list) =>
        list.length === 0 ? (
          <Text size="1" color="gray">
            Nothing sent yet.
          </Text>
        ) : (
          <Table.Root variant="surface" size="1">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeaderCell>Event</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>Status</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>HTTP</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>Latency</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>Attempts</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>Time</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>
                  <Text className="rt-visually-hidden">Actions</Text>
                </Table.ColumnHeaderCell>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {list.map((delivery: WebhookDeliveriesResponse) => (
                <Table.Row key={delivery.id}>
                  <Table.Cell>{delivery.event}</Table.Cell>
                  <Table.Cell>
                    <Flex direction="column" gap="1">
                      <Badge color={STATUS_COLORS[delivery.status]}>{delivery.status}</Badge>
                      {delivery.lastError ? (
                        <Text size="1" color="gray">
                          {delivery.lastError}
                        </Text>
                      ) : null}
                    </Flex>
                  </Table.Cell>
                  <Table.Cell>{delivery.lastStatus || '—'}</Table.Cell>
                  <Table.Cell>{delivery.attempts ? `${delivery.latencyMs} ms` : '—'}</Table.Cell>
                  <Table.Cell>{delivery.attempts}</Table.Cell>
                  <Table.Cell>{formatDate(delivery.created)}</Table.Cell>
                  <Table.Cell>
                    {delivery.status === 'pending' || delivery.event === 'webhook.test' ? null : (
                      <Button
                        size="1"
                        variant="soft"
                        aria-label={`Send the ${delivery.event} delivery again`}
                        onClick={() =>
                          sendAgain.mutate(delivery.id, {
                            onSuccess: () => toast.success('The delivery will be sent again'),
                            onError: (error) => toast.error(getErrorMessage(error)),
                          })
                        }
                      >
                        Send again
                      </Button>
                    )}
                  </Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        )
      }
    </QueryState>
  );
}
