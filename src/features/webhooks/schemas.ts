import { z } from 'zod';

/** The events a company's endpoint may want (issue 18), with what the settings screen calls them. */
export const WEBHOOK_EVENTS = [
  { value: 'candidate.invited', label: 'A candidate is invited' },
  { value: 'candidate.started', label: 'A candidate starts the interview' },
  { value: 'candidate.completed', label: 'A candidate completes the interview' },
  { value: 'answer.transcribed', label: 'An answer is transcribed' },
  { value: 'candidate.decided', label: 'A decision is made' },
  { value: 'candidate.messaged', label: 'A decision message is sent' },
] as const;

export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number]['value'];

const EVENT_VALUES = WEBHOOK_EVENTS.map((event) => event.value) as [WebhookEvent, ...WebhookEvent[]];

function isHttpsUrl(value: string): boolean {
  try {
    const url = new URL(value);
    // http:// is for a receiver on the developer's own machine; the server decides whether it allows it
    return url.protocol === 'https:' || (url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname));
  } catch {
    return false;
  }
}

/** Adding an endpoint: its URL and the events it wants (the server checks the address again and makes the secret). */
export const webhookEndpointSchema = z.object({
  url: z.string().trim().min(1, 'Enter the URL that receives the events').refine(isHttpsUrl, 'Use an https:// address'),
  events: z.array(z.enum(EVENT_VALUES)).min(1, 'Choose at least one event'),
});

export type WebhookEndpointValues = z.infer<typeof webhookEndpointSchema>;
