/**
 * Stands in for `markdown-to-jsx` in this remote's build (see webpack.config.cjs): rjsf renders descriptions
 * and help as markdown only when a uiSchema asks for it, which the forms never do, and the library is a third
 * of rjsf's weight. Text is shown as it is.
 */
import type { ReactNode } from 'react';

export function Markdown({ children }: { children?: ReactNode }) {
  return <>{children}</>;
}

export default Markdown;
