import type { FormInstance } from 'antd';

export const PHONE_RE = /^(\+?86)?1[3-9]\d{9}$/;

/** The phone number as the server takes it: mainland numbers as typed, others with their `+code`. */
export function fullPhone(form: FormInstance): string {
  const number = String(form.getFieldValue('phone') || '').trim();
  const dial = String(form.getFieldValue('dialCode') || '+86');
  return dial === '+86' || number.startsWith('+') ? number : `${dial}${number.replace(/^0+/, '')}`;
}
