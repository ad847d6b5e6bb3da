import { base64Bytes, request } from '@atrium/sdk';

function pemToDer(pem: string): ArrayBuffer {
  const b64 = pem.replace(/-----(BEGIN|END)[^-]+-----/g, '').replace(/\s+/g, '');
  const binary = atob(b64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes.buffer;
}

/** Encrypts `"<nonce>:<password>"` with the server's RSA-OAEP (SHA-256) key; returns base64. */
export async function encryptPassword(password: string): Promise<string> {
  const { publicKey, nonce } = await request<{ publicKey: string; nonce: string }>('base/base-user/get-enryption', { method: 'POST', data: {} });
  const key = await crypto.subtle.importKey('spki', pemToDer(publicKey), { name: 'RSA-OAEP', hash: 'SHA-256' }, false, ['encrypt']);
  const cipher = await crypto.subtle.encrypt({ name: 'RSA-OAEP' }, key, new TextEncoder().encode(`${nonce}:${password}`));
  return base64Bytes(cipher);
}
