import { Grid } from 'antd';

/** True below antd's `md` breakpoint (768 px): dialogs and drawers take the full width there. */
export function useIsPhone(): boolean {
  const screens = Grid.useBreakpoint();
  return screens.md === false;
}
