import type { ComponentType, ReactNode } from 'react';

/** The shell's extension slots a plugin may fill (named in its manifest entry). */
export const SLOT_NAMES = ['navbarItem', 'drawer', 'overlay', 'homeCard', 'portalPanel'] as const;
export type SlotName = (typeof SLOT_NAMES)[number];

export interface NavbarItemProps {
  /** Text colour that reads on the navbar background. */
  color: string;
  compact: boolean;
}

export interface DrawerSlotProps {
  open: boolean;
  onClose: () => void;
  /** Title of the active page (help drawers use it). */
  pageTitle: string;
  /** `panel`: drawn in the chat side panel (6 of 24 columns) rather than the help drawer. */
  variant?: 'drawer' | 'panel';
}

export interface HomeCardSlot {
  /** Card title (already translated) and its grid width in 24ths. */
  title?: ReactNode;
  span?: number;
  Component: ComponentType;
}

export interface SlotComponents {
  navbarItem?: ComponentType<NavbarItemProps>;
  drawer?: ComponentType<DrawerSlotProps>;
  overlay?: ComponentType;
  homeCard?: ComponentType | HomeCardSlot;
  portalPanel?: ComponentType | HomeCardSlot;
}
