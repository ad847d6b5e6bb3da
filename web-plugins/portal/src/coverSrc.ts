import { useEffect, useState } from 'react';
import { appUrl, request } from '@atrium/sdk';

/** Files kept by the files plugin are served to an <img> only through a short-lived signed address. */
const STORED_FILE = '/api/file/iot-base-attachment/file/';

/** The address an <img> can show for a cover: the signed address a public article comes with (readers
 * without a session), other addresses as they are, a stored file through the files plugin's `getUrl`
 * (spec 7.3); '' while it is asked for or when it cannot be shown. */
export function useCoverSrc(url: string | undefined, shared?: string | null): string {
  const stored = !!url && url.startsWith(STORED_FILE) && !shared;
  const [signed, setSigned] = useState('');
  useEffect(() => {
    setSigned('');
    if (!stored) return;
    let alive = true;
    request<string>('file/iot-base-attachment/getUrl', { params: { url }, silent: true })
      .then((u) => alive && setSigned(u))
      .catch(() => undefined);
    return () => {
      alive = false;
    };
  }, [url, stored]);
  return appUrl(shared || (stored ? signed : url || ''));
}
