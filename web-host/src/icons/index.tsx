/**
 * The shell's icons: a small in-house set of inline SVGs on a 24-unit grid, drawn with `currentColor` at
 * 1em, so they take the colour and size of the text around them.
 *
 * Each icon renders the same element antd's own icons do (`<span role="img" aria-label class="anticon
 * anticon-NAME"><svg/></span>`): antd's `.anticon` rules (alignment in buttons, inputs, menus, float
 * buttons) apply unchanged, menus can add their `className`, and an icon's accessible name is the one it
 * had before. The icon package itself is not used by the host: it is not a shared library, so every icon
 * imported from it would be bundled into the shell's first page together with its runtime.
 */
import type { HTMLAttributes, ReactElement, Ref } from 'react';

export type IconProps = HTMLAttributes<HTMLSpanElement> & { ref?: Ref<HTMLSpanElement> };
export type IconComponent = ((props: IconProps) => ReactElement) & { displayName?: string };

/** An icon drawn by one path: stroked outlines, or a filled shape when `filled`. */
function icon(name: string, d: string, filled = false): IconComponent {
  const Icon: IconComponent = ({ className, ...rest }) => (
    <span role="img" aria-label={name} {...rest} className={`anticon anticon-${name}${className ? ` ${className}` : ''}`}>
      <svg
        viewBox="0 0 24 24"
        width="1em"
        height="1em"
        fill={filled ? 'currentColor' : 'none'}
        stroke="currentColor"
        strokeWidth={filled ? 1.5 : 2}
        strokeLinecap="round"
        strokeLinejoin="round"
        focusable="false"
        aria-hidden="true"
      >
        <path d={d} />
      </svg>
    </span>
  );
  Icon.displayName = `Icon(${name})`;
  return Icon;
}

const STAR = 'M12 3l2.8 5.7 6.2.9-4.5 4.4 1.1 6.2L12 17.3l-5.6 2.9 1.1-6.2L3 9.6l6.2-.9z';
const GRID = 'M4 4h6v6H4zM14 4h6v6h-6zM4 14h6v6H4z';

// Navigation and layout
export const HomeIcon = /*#__PURE__*/ icon('home', 'M3 11l9-8 9 8M5 9.5V21h5v-6h4v6h5V9.5');
export const MenuFoldIcon = /*#__PURE__*/ icon('menu-fold', 'M3 5h18M11 10h10M11 14h10M3 19h18M7.5 9 4.5 12l3 3');
export const MenuUnfoldIcon = /*#__PURE__*/ icon('menu-unfold', 'M3 5h18M11 10h10M11 14h10M3 19h18M4.5 9l3 3-3 3');
export const DownIcon = /*#__PURE__*/ icon('down', 'M6 9l6 6 6-6');
export const RightIcon = /*#__PURE__*/ icon('right', 'M9 6l6 6-6 6');
export const ArrowRightIcon = /*#__PURE__*/ icon('arrow-right', 'M4 12h16M14 6l6 6-6 6');
export const SearchIcon = /*#__PURE__*/ icon('search', 'M11 18a7 7 0 1 0 0-14 7 7 0 0 0 0 14zM16.2 16.2 21 21');
export const CloseIcon = /*#__PURE__*/ icon('close', 'M6 6l12 12M18 6 6 18');
export const PlusIcon = /*#__PURE__*/ icon('plus', 'M12 5v14M5 12h14');
export const CheckIcon = /*#__PURE__*/ icon('check', 'M4 12.5l5 5L20 6.5');
export const ReloadIcon = /*#__PURE__*/ icon('reload', 'M20 12a8 8 0 1 1-2.4-5.7L20 8.6M20 3.5v5.1h-5.1');
export const PushpinIcon = /*#__PURE__*/ icon('pushpin', 'M9 3h6M10 3v6l-3 4h10l-3-4V3M12 13v8');
export const FolderIcon = /*#__PURE__*/ icon('folder', 'M3 6a1 1 0 0 1 1-1h5l2 2h9a1 1 0 0 1 1 1v10a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1z');
export const FileTextIcon = /*#__PURE__*/ icon('file-text', 'M6 3h8l4 4v14H6zM14 3v4h4M9 12h6M9 16h6');

// Systems, tenants and applications
export const AppstoreIcon = /*#__PURE__*/ icon('appstore', `${GRID}M14 14h6v6h-6z`);
export const AppstoreAddIcon = /*#__PURE__*/ icon('appstore-add', `${GRID}M17 14v6M14 17h6`);
export const ApartmentIcon = /*#__PURE__*/ icon('apartment', 'M9 3h6v5H9zM3 16h6v5H3zM15 16h6v5h-6zM12 8v4M6 16v-4h12v4');
export const DesktopIcon = /*#__PURE__*/ icon('desktop', 'M3 4h18v12H3zM8 20h8M12 16v4');
export const SwapIcon = /*#__PURE__*/ icon('swap', 'M4 8h16l-4-4M20 16H4l4 4');

// The user and the session
export const UserIcon = /*#__PURE__*/ icon('user', 'M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM4 21a8 8 0 0 1 16 0');
export const LoginIcon = /*#__PURE__*/ icon('login', 'M14 4h5v16h-5M10 8l4 4-4 4M14 12H3');
export const LogoutIcon = /*#__PURE__*/ icon('logout', 'M10 4H5v16h5M16 8l4 4-4 4M20 12H9');
export const LockIcon = /*#__PURE__*/ icon('lock', 'M5 11h14v10H5zM8 11V7a4 4 0 0 1 8 0v4M12 15v2');
export const SafetyIcon = /*#__PURE__*/ icon('safety', 'M12 3l8 3v6c0 5-3.5 8-8 9-4.5-1-8-4-8-9V6zM8.5 12l2.5 2.5 4.5-4.5');
export const MailIcon = /*#__PURE__*/ icon('mail', 'M3 5h18v14H3zM3 6l9 7 9-7');
export const MobileIcon = /*#__PURE__*/ icon('mobile', 'M7 2h10v20H7zM11 18h2');
export const CameraIcon = /*#__PURE__*/ icon('camera', 'M3 8h4l2-3h6l2 3h4v12H3zM12 17a3.5 3.5 0 1 0 0-7 3.5 3.5 0 0 0 0 7z');

// Shell tools
export const BellIcon = /*#__PURE__*/ icon('bell', 'M6 17v-6a6 6 0 0 1 12 0v6l2 2H4zM10 21h4');
export const GlobalIcon = /*#__PURE__*/ icon(
  'global',
  'M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zM3 12h18M12 3c2.4 2.5 3.6 5.5 3.6 9s-1.2 6.5-3.6 9c-2.4-2.5-3.6-5.5-3.6-9S9.6 5.5 12 3z',
);
export const SettingIcon = /*#__PURE__*/ icon(
  'setting',
  'M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM12 2v3M12 19v3M4.9 4.9 7 7M17 17l2.1 2.1M2 12h3M19 12h3M4.9 19.1 7 17M17 7l2.1-2.1',
);
export const BgColorsIcon = /*#__PURE__*/ icon(
  'bg-colors',
  'M12 3a9 9 0 0 0 0 18 2 2 0 0 0 1.5-3.3 2 2 0 0 1 1.5-3.3h2.3A4.2 4.2 0 0 0 21 10c0-3.9-4-7-9-7zM7.5 11.5h.01M9.5 7.5h.01M14.5 7.5h.01',
);
export const QuestionCircleIcon = /*#__PURE__*/ icon(
  'question-circle',
  'M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zM9.5 9.5a2.5 2.5 0 1 1 3.4 2.3c-.6.3-.9.8-.9 1.5v.4M12 17h.01',
);
export const RobotIcon = /*#__PURE__*/ icon('robot', 'M5 8h14v12H5zM12 8V4M9 13v2M15 13v2M2 12v4M22 12v4');
export const CommentIcon = /*#__PURE__*/ icon('comment', 'M4 4h16v12H9l-5 4zM8 8.5h8M8 12h5');
export const QrcodeIcon = /*#__PURE__*/ icon('qrcode', `${GRID}M14 14h3v3h-3zM20 14v.01M20 20h-3M20 17v3M14 20h.01`);
export const StarIcon = /*#__PURE__*/ icon('star', STAR);
export const StarFilledIcon = /*#__PURE__*/ icon('star', STAR, true);
export const ThunderboltIcon = /*#__PURE__*/ icon('thunderbolt', 'M13 2 4 14h7l-1 8 9-12h-7z');
export const FullscreenIcon = /*#__PURE__*/ icon('fullscreen', 'M4 9V4h5M15 4h5v5M20 15v5h-5M9 20H4v-5');
export const FullscreenExitIcon = /*#__PURE__*/ icon('fullscreen-exit', 'M9 4v5H4M20 9h-5V4M15 20v-5h5M4 15h5v5');
