import { translate } from '@atrium/sdk';

/** Image upload in reports (spec 5 and 9): jpg/jpeg/png, at most 2 MB, 5 images by default. */
export const IMAGE_MAX_BYTES = 2097152;
export const IMAGE_MAX_COUNT = 5;
export const IMAGE_TYPES = ['image/jpeg', 'image/png'];
export const IMAGE_EXTENSIONS = ['jpg', 'jpeg', 'png'];

/** Icon upload (spec 5 and 9): images only, 5 files of 1 MB by default. */
export const ICON_MAX_BYTES = 1024 * 1024;
export const ICON_MAX_COUNT = 5;

/** 1048576 -> "1MB", 512000 -> "500KB" (units B, KB, MB). */
export function sizeText(bytes: number): string {
  if (bytes >= 1048576) return `${Number.isInteger(bytes / 1048576) ? bytes / 1048576 : (bytes / 1048576).toFixed(1)}MB`;
  if (bytes >= 1024) return `${Math.floor(bytes / 1024)}KB`;
  return `${bytes}B`;
}

function extension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
}

/** The spec's warning for a picture that cannot be uploaded, or null when it may go. */
export function checkImage(file: File, maxBytes = IMAGE_MAX_BYTES): string | null {
  if (!IMAGE_TYPES.includes(file.type) || !IMAGE_EXTENSIONS.includes(extension(file.name))) {
    return translate('files:web.image.badType', 'picture must be JPEG, JPG or PNG');
  }
  if (file.size > maxBytes) {
    return translate('files:web.image.tooBig', 'picture size must not exceed {{limit}}', { limit: sizeText(maxBytes) });
  }
  return null;
}

/** The warning for an icon file, or null. */
export function checkIcon(file: File, maxBytes = ICON_MAX_BYTES): string | null {
  if (!file.type.startsWith('image/') && extension(file.name) !== 'svg') {
    return translate('files:web.icon.badType', 'Only image files can be uploaded');
  }
  if (file.size > maxBytes) {
    return translate('files:web.icon.tooBig', 'The image cannot exceed {{limit}}', { limit: sizeText(maxBytes) });
  }
  return null;
}
