import { useSyncExternalStore } from 'react';
import type { Passage } from './api';

/** One question and its answer as it streams in. */
export interface Turn {
  id: number;
  question: string;
  answer: string;
  passages: Passage[];
  mode?: 'llm' | 'passages';
  status: 'streaming' | 'done' | 'stopped' | 'error';
  error?: string;
}

interface ChatState {
  session: string;
  turns: Turn[];
}

function newSession(): string {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_'[b % 64]).join('');
}

let state: ChatState = { session: newSession(), turns: [] };
const listeners = new Set<() => void>();

/** The chat of this page, shared by the help drawer and the chat side panel; cleared on sign-out. */
export const chat = {
  get: () => state,
  set(next: Partial<ChatState>) {
    state = { ...state, ...next };
    listeners.forEach((l) => l());
  },
  update(id: number, change: (turn: Turn) => Partial<Turn>) {
    chat.set({ turns: state.turns.map((t) => (t.id === id ? { ...t, ...change(t) } : t)) });
  },
  reset() {
    chat.set({ session: newSession(), turns: [] });
  },
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

export function useChat(): ChatState {
  return useSyncExternalStore(chat.subscribe, chat.get);
}
