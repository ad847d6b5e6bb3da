import { useEffect, useState, type ComponentType } from 'react';
import { Card } from 'antd';
import { acceptPlugin, type HomeCardSlot, type Manifest, type SlotName } from '@atrium/sdk';
import { ErrorBoundary } from '../components/ErrorBoundary';
import { loadExposed } from './registry';

export interface LoadedSlot {
  plugin: string;
  Component: ComponentType<any>;
  title?: React.ReactNode;
  span?: number;
}

function toSlot(plugin: string, value: unknown): LoadedSlot | undefined {
  if (!value) return undefined;
  if (typeof value === 'function') return { plugin, Component: value as ComponentType<any> };
  const card = value as HomeCardSlot;
  if (card && typeof card.Component === 'function') return { plugin, Component: card.Component, title: card.title, span: card.span };
  return undefined;
}

/** Loads every component that manifest plugins declare for a slot; a failing one is left out. */
export function useSlot(manifest: Manifest | null, slot: SlotName): LoadedSlot[] {
  const [items, setItems] = useState<LoadedSlot[]>([]);
  useEffect(() => {
    let alive = true;
    const wanted = (manifest?.plugins || []).flatMap((p) => (p.slots || []).filter((s) => s.slot === slot).map((s) => ({ plugin: p, module: s.module })));
    if (!wanted.length) {
      setItems([]);
      return undefined;
    }
    Promise.all(
      wanted.map(async ({ plugin, module }) => {
        try {
          const mod = await loadExposed(plugin, module);
          let value: unknown;
          try {
            value = acceptPlugin(mod).slots?.[slot];
          } catch {
            const m = mod as { default?: unknown };
            value = m?.default ?? mod;
          }
          return toSlot(plugin.name, value);
        } catch (err) {
          console.warn(`[atrium] slot ${slot} of ${plugin.name} failed to load`, err);
          return undefined;
        }
      }),
    ).then((list) => alive && setItems(list.filter((x): x is LoadedSlot => !!x)));
    return () => {
      alive = false;
    };
  }, [manifest, slot]);
  return items;
}

/** Renders slot components side by side, each in its own error boundary. */
export function SlotOutlet({ items, props }: { items: LoadedSlot[]; props?: Record<string, unknown> }) {
  return (
    <>
      {items.map(({ plugin, Component }) => (
        <ErrorBoundary key={plugin} fallback={() => null}>
          <Component {...(props || {})} />
        </ErrorBoundary>
      ))}
    </>
  );
}

export function SlotCard({ item }: { item: LoadedSlot }) {
  const { Component } = item;
  return (
    <ErrorBoundary fallback={() => <Card size="small">—</Card>}>
      {item.title ? (
        <Card title={item.title} variant="borderless">
          <Component />
        </Card>
      ) : (
        <Component />
      )}
    </ErrorBoundary>
  );
}
