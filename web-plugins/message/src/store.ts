import { useSyncExternalStore } from 'react';
import { bus } from '@atrium/sdk';
import { findMessages, unreadTotal, type Message } from './api';

/** What the bell shows: the unread count and the latest unread letters, shared with the letters page. */
export interface InboxState {
  unread: number;
  latest: Message[];
  loaded: boolean;
}

type Listener = () => void;

class InboxStore {
  state: InboxState = { unread: 0, latest: [], loaded: false };
  private listeners = new Set<Listener>();
  private loading: Promise<void> | null = null;
  private again = false;

  subscribe = (l: Listener): (() => void) => {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  };

  get = (): InboxState => this.state;

  set(patch: Partial<InboxState>): void {
    this.state = { ...this.state, ...patch };
    for (const l of Array.from(this.listeners)) l();
  }

  /** Reloads the unread count and list; calls made while one runs are folded into one more run. */
  reload(): Promise<void> {
    if (this.loading) {
      this.again = true;
      return this.loading;
    }
    this.loading = (async () => {
      try {
        const [unread, page] = await Promise.all([unreadTotal(), findMessages(1, 0, true)]);
        this.set({ unread: Number(unread) || 0, latest: page.list, loaded: true });
      } catch {
        /* a failed call leaves the bell as it was (spec 8) */
      } finally {
        this.loading = null;
        if (this.again) {
          this.again = false;
          void this.reload();
        }
      }
    })();
    return this.loading;
  }

  reset(): void {
    this.set({ unread: 0, latest: [], loaded: false });
  }
}

export const inbox = new InboxStore();

export function useInbox(): InboxState {
  return useSyncExternalStore(inbox.subscribe, inbox.get, inbox.get);
}

/** After the letters page changed read states: the bell (and a shell bell, if any) reload. */
export function inboxChanged(): void {
  void inbox.reload();
  bus.emit('message:read');
}
