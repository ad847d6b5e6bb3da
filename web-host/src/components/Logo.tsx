import { useState } from 'react';
import { appUrl } from '@atrium/sdk';

/** The tenant's logo, falling back to the default mark when there is none or it fails to load. */
export function Logo({ src, size = 30, light = false }: { src?: string; size?: number; light?: boolean }) {
  const [failed, setFailed] = useState(false);
  if (src && !failed) return <img src={appUrl(src)} alt="logo" style={{ height: size, maxWidth: size * 4, objectFit: 'contain' }} onError={() => setFailed(true)} />;
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-label="logo" role="img">
      <rect width="32" height="32" rx="8" fill={light ? 'rgba(255,255,255,.18)' : 'var(--at-primary, #204BE3)'} />
      <path d="M9 23 16 8l7 15h-4l-3-7-3 7z" fill="#fff" />
    </svg>
  );
}
