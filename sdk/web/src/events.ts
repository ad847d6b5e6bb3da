import { globalSingleton } from './global';

export type Handler<T = unknown> = (payload: T) => void;

/** A small publish/subscribe bus shared by the host and every plugin (one per page). Shell events:
 * `login`, `logout`, `tenant:switched`, `system:switched`, `menus:loaded`, `tab:opened`, `tab:closed`,
 * `route:changed`, `message:received`, `language:changed`, `theme:changed`; pages send `tab:title` (setTabTitle). */
export class EventBus {
  // handlers of every payload type: the bus cannot know which one an event carries (`emit` hands on what it gets)
  private handlers = new Map<string, Set<Handler<never>>>();

  on<T = unknown>(event: string, handler: Handler<T>): () => void {
    let set = this.handlers.get(event);
    if (!set) {
      set = new Set();
      this.handlers.set(event, set);
    }
    set.add(handler);
    return () => this.off(event, handler);
  }

  once<T = unknown>(event: string, handler: Handler<T>): () => void {
    const off = this.on<T>(event, (payload) => {
      off();
      handler(payload);
    });
    return off;
  }

  off<T = unknown>(event: string, handler: Handler<T>): void {
    this.handlers.get(event)?.delete(handler);
  }

  emit<T = unknown>(event: string, payload?: T): void {
    const set = this.handlers.get(event);
    if (!set) return;
    for (const handler of Array.from(set)) {
      try {
        (handler as Handler<T | undefined>)(payload);
      } catch (err) {
        console.error(`[atrium] handler for "${event}" failed`, err);
      }
    }
  }

  clear(): void {
    this.handlers.clear();
  }
}

export const bus: EventBus = globalSingleton('bus', () => new EventBus());
