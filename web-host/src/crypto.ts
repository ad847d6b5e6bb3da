import { base64Bytes, request } from '@atrium/sdk';

/** HKDF's context for the key a password is sealed with (the server derives the same). */
const INFO = new TextEncoder().encode('atrium transit password');
const CURVE = { name: 'ECDH', namedCurve: 'P-256' } as const;

function pemToDer(pem: string): ArrayBuffer {
  const b64 = pem.replace(/-----(BEGIN|END)[^-]+-----/g, '').replace(/\s+/g, '');
  const binary = atob(b64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes.buffer;
}

/** Seals `"<nonce>:<password>"` to the server's P-256 key (ECDH with a fresh key, HKDF-SHA256, AES-256-GCM):
 * base64 of this side's point, the IV and the ciphertext with its tag. */
export async function encryptPassword(password: string): Promise<string> {
  const { publicKey, nonce } = await request<{ publicKey: string; nonce: string }>('base/base-user/get-enryption', { method: 'POST', data: {} });
  const server = await crypto.subtle.importKey('spki', pemToDer(publicKey), CURVE, false, []);
  const own = await crypto.subtle.generateKey(CURVE, true, ['deriveBits']);
  const shared = await crypto.subtle.deriveBits({ name: 'ECDH', public: server }, own.privateKey, 256);
  const hkdf = await crypto.subtle.importKey('raw', shared, 'HKDF', false, ['deriveKey']);
  const key = await crypto.subtle.deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), info: INFO },
    hkdf,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt'],
  );
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, new TextEncoder().encode(`${nonce}:${password}`));
  const point = new Uint8Array(await crypto.subtle.exportKey('raw', own.publicKey));
  const out = new Uint8Array(point.length + iv.length + sealed.byteLength);
  out.set(point, 0);
  out.set(iv, point.length);
  out.set(new Uint8Array(sealed), point.length + iv.length);
  return base64Bytes(out.buffer);
}
