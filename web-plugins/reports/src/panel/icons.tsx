/**
 * The icons of a view's header, inline (the icon library is not one of the shared packages, see the message and
 * sso plugins): antd's own outlined icons, drawn in the element antd draws them in (`span.anticon` around a
 * 1em SVG), so that antd's button rules size, align and colour them like the shell's icons.
 */
function AntIcon({ name, d }: { name: string; d: string }) {
  return (
    <span role="img" aria-hidden="true" className={`anticon anticon-${name}`} data-icon={name}>
      <svg viewBox="64 64 896 896" width="1em" height="1em" fill="currentColor" focusable="false" aria-hidden="true">
        <path d={d} />
      </svg>
    </span>
  );
}

/** antd's ExpandAltOutlined: open the view larger (the details dialog). */
export function DetailsIcon() {
  return (
    <AntIcon
      name="expand-alt"
      d="M855 160.1l-189.2 23.5c-6.6.8-9.3 8.8-4.7 13.5l54.7 54.7-153.5 153.5a8.03 8.03 0 000 11.3l45.1 45.1c3.1 3.1 8.2 3.1 11.3 0l153.6-153.6 54.7 54.7a7.94 7.94 0 0013.5-4.7L863.9 169a7.9 7.9 0 00-8.9-8.9zM416.6 562.3a8.03 8.03 0 00-11.3 0L251.8 715.9l-54.7-54.7a7.94 7.94 0 00-13.5 4.7L160.1 855c-.6 5.2 3.7 9.5 8.9 8.9l189.2-23.5c6.6-.8 9.3-8.8 4.7-13.5l-54.7-54.7 153.6-153.6c3.1-3.1 3.1-8.2 0-11.3l-45.2-45z"
    />
  );
}

/** antd's DownloadOutlined: export the view. */
export function ExportIcon() {
  return (
    <AntIcon
      name="download"
      d="M505.7 661a8 8 0 0012.6 0l112-141.7c4.1-5.2.4-12.9-6.3-12.9h-74.1V168c0-4.4-3.6-8-8-8h-60c-4.4 0-8 3.6-8 8v338.3H400c-6.7 0-10.4 7.7-6.3 12.9l112 141.8zM878 626h-60c-4.4 0-8 3.6-8 8v154H214V634c0-4.4-3.6-8-8-8h-60c-4.4 0-8 3.6-8 8v198c0 17.7 14.3 32 32 32h684c17.7 0 32-14.3 32-32V634c0-4.4-3.6-8-8-8z"
    />
  );
}
