import dayjs from 'dayjs';

/** Send time as the spec shows it: YYYY-MM-DD HH:mm, in the browser's time zone. */
export function sendTime(iso: string | undefined): string {
  if (!iso) return '';
  const d = dayjs(iso);
  return d.isValid() ? d.format('YYYY-MM-DD HH:mm') : iso;
}

/** The text of server-sanitised HTML (previews in the bell). */
export function plainText(html: string): string {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  return (doc.body.textContent || '').replace(/\s+/g, ' ').trim();
}
