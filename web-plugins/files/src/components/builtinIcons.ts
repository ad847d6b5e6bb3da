/** The built-in icon set (spec 3.8: icon_id, name, font_class, unicode, unicode_decimal), drawn as SVG paths
 * on a 24 x 24 grid so the picker needs no icon font. */
export interface BuiltinIcon {
  icon_id: string;
  name: string;
  font_class: string;
  unicode: string;
  unicode_decimal: number;
  path: string;
}

const P: [string, string, string][] = [
  ['home', 'Home', 'M3 11l9-8 9 8v10a1 1 0 0 1-1 1h-5v-7H9v7H4a1 1 0 0 1-1-1z'],
  ['user', 'User', 'M12 12a5 5 0 1 0 0-10 5 5 0 0 0 0 10zm-8 10a8 8 0 0 1 16 0z'],
  ['setting', 'Settings', 'M12 8a4 4 0 1 0 0 8 4 4 0 0 0 0-8zm9 5v-2l-2.4-.6a7 7 0 0 0-.7-1.7l1.3-2.1-1.4-1.4-2.1 1.3a7 7 0 0 0-1.7-.7L13 3h-2l-.6 2.4a7 7 0 0 0-1.7.7L6.6 4.8 5.2 6.2l1.3 2.1a7 7 0 0 0-.7 1.7L3 11v2l2.4.6c.2.6.4 1.2.7 1.7l-1.3 2.1 1.4 1.4 2.1-1.3c.5.3 1.1.5 1.7.7L11 21h2l.6-2.4a7 7 0 0 0 1.7-.7l2.1 1.3 1.4-1.4-1.3-2.1c.3-.5.5-1.1.7-1.7z'],
  ['chart', 'Chart', 'M3 21h18v-2H3zm2-4h3V9H5zm5 0h3V4h-3zm5 0h3v-6h-3z'],
  ['file', 'File', 'M6 2h8l5 5v15H6zm7 1v5h5'],
  ['folder', 'Folder', 'M2 5h7l2 2h11v13H2z'],
  ['star', 'Star', 'M12 2l3 7h7l-5.5 4.5L18.5 21 12 16.5 5.5 21l2-7.5L2 9h7z'],
  ['heart', 'Heart', 'M12 21l-8.5-8.5a5 5 0 0 1 7-7L12 7l1.5-1.5a5 5 0 0 1 7 7z'],
  ['bell', 'Bell', 'M6 16V11a6 6 0 0 1 12 0v5l2 2H4zm4 4h4a2 2 0 0 1-4 0z'],
  ['search', 'Search', 'M10 3a7 7 0 1 1 0 14 7 7 0 0 1 0-14zm0 2a5 5 0 1 0 0 10 5 5 0 0 0 0-10zm5.5 10.1l5.4 5.4-1.4 1.4-5.4-5.4z'],
  ['calendar', 'Calendar', 'M3 5h18v16H3zm0 5h18M8 2v5m8-5v5'],
  ['mail', 'Mail', 'M2 5h20v14H2zm0 1l10 7 10-7'],
  ['lock', 'Lock', 'M5 10h14v12H5zm3 0V7a4 4 0 0 1 8 0v3'],
  ['cloud', 'Cloud', 'M7 19a5 5 0 0 1-.6-10A7 7 0 0 1 20 10a4.5 4.5 0 0 1-1 9z'],
  ['check', 'Check', 'M4 12l5 5L20 6'],
  ['close', 'Close', 'M5 5l14 14M19 5L5 19'],
  ['team', 'Team', 'M8 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8zm8 0a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM1 21a7 7 0 0 1 14 0zm14 0h8a5 5 0 0 0-8-4'],
  ['shop', 'Shop', 'M3 9l2-6h14l2 6v2a3 3 0 0 1-6 0 3 3 0 0 1-6 0 3 3 0 0 1-6 0zm2 4v8h14v-8'],
];

export const BUILTIN_ICONS: BuiltinIcon[] = P.map(([cls, name, path], i) => ({
  icon_id: String(1000 + i),
  name,
  font_class: cls,
  unicode: (0xe600 + i).toString(16),
  unicode_decimal: 0xe600 + i,
  path,
}));
