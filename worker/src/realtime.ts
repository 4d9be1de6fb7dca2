// PocketBase realtime over fetch (Node 20 has no EventSource): GET /api/realtime is a text/event-stream whose
// first event, PB_CONNECT, carries the clientId; POST /api/realtime {clientId, subscriptions} with the auth token
// subscribes it. A dropped stream reconnects (and resubscribes) with the SDK's delays.

export interface SseEvent {
  event: string;
  data: string;
  id?: string;
}

/** Splits a text/event-stream into events; feed it chunks, it returns the events they completed. */
export class SseParser {
  private buffer = "";

  push(chunk: string): SseEvent[] {
    this.buffer += chunk.replace(/\r\n?/g, "\n");
    const events: SseEvent[] = [];
    let end: number;
    while ((end = this.buffer.indexOf("\n\n")) !== -1) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      const event: SseEvent = { event: "message", data: "" };
      const data: string[] = [];
      for (const line of block.split("\n")) {
        if (!line || line.startsWith(":")) continue;
        const colon = line.indexOf(":");
        const field = colon === -1 ? line : line.slice(0, colon);
        const value = colon === -1 ? "" : line.slice(colon + 1).replace(/^ /, "");
        if (field === "event") event.event = value;
        else if (field === "data") data.push(value);
        else if (field === "id") event.id = value;
      }
      event.data = data.join("\n");
      if (data.length || event.event !== "message") events.push(event);
    }
    return events;
  }
}

export const RECONNECT_DELAYS_MS = [200, 300, 500, 1000, 1200, 1500, 2000];

export interface RealtimeOptions {
  url: string;
  topics: string[];
  token: () => Promise<string>;
  onEvent: (topic: string, data: unknown) => void;
  /** After every (re)subscription: events may have been missed while disconnected. */
  onConnected?: () => void;
  log?: (message: string) => void;
}

export function connectRealtime(options: RealtimeOptions): { close: () => void } {
  let stopped = false;
  let controller: AbortController | undefined;
  let failures = 0;
  const log = options.log ?? (() => {});

  async function once(): Promise<void> {
    controller = new AbortController();
    const res = await fetch(`${options.url}/api/realtime`, {
      headers: { Accept: "text/event-stream" },
      signal: controller.signal,
    });
    if (!res.ok || !res.body) throw new Error(`realtime stream answered ${res.status}`);
    const parser = new SseParser();
    const decoder = new TextDecoder();
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      for (const event of parser.push(decoder.decode(chunk, { stream: true }))) {
        if (event.event === "PB_CONNECT") {
          const { clientId } = JSON.parse(event.data) as { clientId: string };
          const sub = await fetch(`${options.url}/api/realtime`, {
            method: "POST",
            headers: { "Content-Type": "application/json", Authorization: await options.token() },
            body: JSON.stringify({ clientId, subscriptions: options.topics }),
          });
          if (!sub.ok) throw new Error(`realtime subscription answered ${sub.status}: ${await sub.text()}`);
          failures = 0;
          log(`realtime: subscribed to ${options.topics.join(", ")}`);
          options.onConnected?.();
        } else if (options.topics.includes(event.event)) {
          try {
            options.onEvent(event.event, JSON.parse(event.data));
          } catch (err) {
            log(`realtime: bad event ${String(err)}`);
          }
        }
      }
    }
  }

  void (async () => {
    while (!stopped) {
      try {
        await once();
        if (!stopped) log("realtime: stream ended, reconnecting");
      } catch (err) {
        if (!stopped) log(`realtime: ${err instanceof Error ? err.message : String(err)}`);
      }
      if (stopped) break;
      const delay = RECONNECT_DELAYS_MS[Math.min(failures, RECONNECT_DELAYS_MS.length - 1)]!;
      failures += 1;
      await new Promise((r) => setTimeout(r, delay));
    }
  })();

  return {
    close: () => {
      stopped = true;
      controller?.abort();
    },
  };
}
