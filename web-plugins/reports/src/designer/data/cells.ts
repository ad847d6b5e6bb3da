/** How a preview cell is shown: numbers with the locale's separators, empty values as a dash. */
import { formatValue } from '../../charts/common';

export function formatCell(value: unknown, type: string | undefined, locale?: string): string {
  if (value === null || value === undefined || value === '') return '-';
  if ((type === 'integer' || type === 'float') && typeof value === 'number') return formatValue(value, null, locale);
  // times come as `YYYY-MM-DD HH:MM:SS[.ffffff]`: zero fractions say nothing
  if (type === 'time' && typeof value === 'string') return value.replace(/\.0+$/, '');
  return String(value);
}
