import { act } from '@testing-library/react';
import type { RecordSubscribeOptions, RecordSubscription } from 'pocketbase';
import { vi } from 'vitest';

import { pb } from '@/lib/pocketbase';

type Subscription = {
  topic: string;
  options: RecordSubscribeOptions | undefined;
  callback: (event: RecordSubscription<never>) => void;
  active: boolean;
};

export type FakeRealtime = {
  /** Delivers a record event to the screen's live subscriptions of `collection` ('*' or the record's own id). */
  emit: (collection: string, action: 'create' | 'update' | 'delete', record: { id: string } & Record<string, unknown>) => void;
  /** Every subscription made to `collection`, with whether it is still up. */
  subscriptions: (collection: string) => readonly Pick<Subscription, 'topic' | 'options' | 'active'>[];
};

/**
 * PocketBase realtime for component tests: `subscribe` on each named collection is replaced by a recorder (jsdom
 * has no EventSource), and `emit` plays the server's events to whoever is subscribed. Restored by
 * vi.restoreAllMocks().
 */
export function fakeRealtime(collections: readonly string[]): FakeRealtime {
  const byCollection = new Map<string, Subscription[]>();
  for (const name of collections) {
    const list: Subscription[] = [];
    byCollection.set(name, list);
    vi.spyOn(pb.collection(name), 'subscribe').mockImplementation((topic, callback, options) => {
      const subscription: Subscription = { topic, options, callback: callback, active: true };
      list.push(subscription);
      return Promise.resolve(() => {
        subscription.active = false;
        return Promise.resolve();
      });
    });
  }
  return {
    emit(collection, action, record) {
      const list = byCollection.get(collection);
      if (!list) throw new Error(`fakeRealtime: ${collection} is not faked`);
      const event = { action, record } as unknown as RecordSubscription<never>;
      act(() => {
        for (const subscription of list) {
          if (subscription.active && (subscription.topic === '*' || subscription.topic === record.id)) subscription.callback(event);
        }
      });
    },
    subscriptions(collection) {
      return byCollection.get(collection) ?? [];
    },
  };
}
