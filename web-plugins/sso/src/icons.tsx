/** The icon the screen draws, inline (the icon library is not one of the shared packages): the same element
 * as the shell's own icons (`span.anticon` around a 24-unit SVG), so antd's button rules apply. */
export function PlusIcon() {
  return (
    <span role="img" aria-label="plus" className="anticon anticon-plus">
      <svg viewBox="0 0 24 24" width="1em" height="1em" fill="none" stroke="currentColor" strokeWidth={2}
        strokeLinecap="round" strokeLinejoin="round" focusable="false" aria-hidden="true">
        <path d="M12 5v14M5 12h14" />
      </svg>
    </span>
  );
}
