// PocketBase realtime through the JS SDK's own client (`pb.collection(...).subscribe`): it opens the event stream,
// subscribes after PB_CONNECT with the client's auth token, and reconnects and resubscribes after a drop, forever,
// with its own delays (200 ms up to 2 s). The SDK creates a global `EventSource`, which Node 20 lacks: the
// `eventsource` package (the WHATWG one, over fetch) stands in for it.
import { EventSource } from "eventsource";
import type PocketBase from "pocketbase";
import type { RecordModel, RecordSubscription } from "pocketbase";

export interface RealtimeOptions<T> {
  onEvent: (event: RecordSubscription<T>) => void;
  /** After every (re)subscription: events may have been missed while disconnected. */
  onConnected?: () => void;
  log?: (message: string) => void;
}

/**
 * Subscribes to every record event of `collection`; resolves once the first subscription is in place and
 * rejects when it fails (nothing is left subscribed then). Returns the unsubscribe.
 */
export async function subscribeRealtime<T = RecordModel>(
  pb: PocketBase,
  collection: string,
  options: RealtimeOptions<T>,
): Promise<() => Promise<void>> {
  globalThis.EventSource ??= EventSource as unknown as typeof globalThis.EventSource;
  const log = options.log ?? (() => {});
  const topic = `${collection}/*`;
  pb.realtime.onDisconnect = (active) => {
    if (active.length) log("realtime: connection lost, reconnecting");
  };
  // Both subscriptions start before either is awaited, so they share one connection and one subscription
  // request, and PB_CONNECT's listener (which the SDK calls after every (re)subscription) runs once both are in.
  const subscriptions = Promise.all([
    pb.collection(collection).subscribe<T>("*", (event) => {
      try {
        options.onEvent(event);
      } catch (err) {
        log(`realtime: bad event ${String(err)}`);
      }
    }),
    pb.realtime.subscribe("PB_CONNECT", () => {
      log(`realtime: subscribed to ${topic}`);
      options.onConnected?.();
    }),
  ]);
  try {
    const unsubscribes = await subscriptions;
    return async () => {
      for (const unsubscribe of unsubscribes) await unsubscribe();
    };
  } catch (err) {
    // the SDK keeps the listeners of a failed subscribe: a retry would otherwise get every event twice
    await pb.realtime.unsubscribe().catch(() => {});
    throw err;
  }
}
