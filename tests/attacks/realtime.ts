// A realtime connection as an attacker opens one (the attack files on realtime share it): PocketBase's SSE stream,
// subscribed to topics with a token, read event by event.
import { expect } from "vitest";
import { pbUrl } from "../helpers";

export interface RealtimeEvent {
  event: string;
  data: string;
}

/**
 * A realtime connection that asks for `subscriptions` with `token`, whatever the server answers: `status` and `body`
 * of the subscription request (204 and "" when accepted), `next()` reads the next event, `close()` ends it.
 */
export async function trySubscribe(token: string, subscriptions: string[]) {
  const controller = new AbortController();
  const stream = await fetch(`${pbUrl()}/api/realtime`, { signal: controller.signal });
  const reader = stream.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  const next = async (): Promise<RealtimeEvent> => {
    for (;;) {
      const end = buffer.indexOf("\n\n");
      if (end !== -1) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event:(.*)$/m.exec(block)?.[1]?.trim() ?? "";
        const data = /^data:(.*)$/m.exec(block)?.[1] ?? "";
        return { event, data };
      }
      const { value, done } = await reader.read();
      if (done) throw new Error("the realtime stream ended");
      buffer += decoder.decode(value);
    }
  };
  const connect = await next();
  expect(connect.event).toBe("PB_CONNECT");
  const clientId = (JSON.parse(connect.data) as { clientId: string }).clientId;
  const res = await fetch(`${pbUrl()}/api/realtime`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: token },
    body: JSON.stringify({ clientId, subscriptions }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as unknown) : "", next, close: () => controller.abort() };
}

/** A realtime connection subscribed to `subscriptions` with `token`: `next()` reads the next event; `close()` ends it. */
export async function openRealtime(token: string, subscriptions: string[]) {
  const { status, next, close } = await trySubscribe(token, subscriptions);
  expect(status).toBe(204);
  return { next, close };
}

/**
 * A realtime connection with `subscriptions`, authorised by `token`: `until(id)` resolves with every event received
 * up to and including the first one whose data names `id`, then closes the connection.
 */
export async function subscribe(token: string, subscriptions: string[]) {
  const realtime = await openRealtime(token, subscriptions);
  return {
    until: async (id: string) => {
      const seen: RealtimeEvent[] = [];
      for (;;) {
        const event = await realtime.next();
        seen.push(event);
        if (event.data.includes(id)) break;
      }
      realtime.close();
      return seen;
    },
  };
}

/** The data of the first realtime event on `topic` for the holder of `token`, after `act` runs. */
export async function firstEvent(token: string, topic: string, act: () => Promise<unknown>): Promise<string> {
  const realtime = await openRealtime(token, [topic]);
  await act();
  const event = await realtime.next();
  realtime.close();
  return event.data;
}
