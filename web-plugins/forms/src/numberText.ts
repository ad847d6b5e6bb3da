/**
 * A number as it is typed: what a number field takes keystroke by keystroke (digits, one decimal point, a
 * sign first) and what the typed text stands for. Words are refused as they are typed, so a field never holds
 * one; a number begun but not finished ("-", ".") stays text, which the form's check calls "not a number"
 * rather than "required".
 */

/** Digits with at most one decimal point and a sign before them: a number, or one being typed. */
const TYPING = /^[-+]?\d*\.?\d*$/;
/** A whole number as JSON has it: digits with a sign and a fraction. */
const COMPLETE = /^[-+]?(\d+\.?\d*|\.\d+)$/;

/** The text as a number field takes it (a Chinese full stop is a decimal point), or null when it is refused. */
export function typedNumber(raw: string): string | null {
  const text = raw.replace(/。/g, '.').trim();
  return TYPING.test(text) ? text : null;
}

/** What a taken text stands for: nothing when empty, a number when finished, else the text itself. */
export function numberValue(text: string): number | string | undefined {
  if (text === '') return undefined;
  return COMPLETE.test(text) ? Number(text) : text;
}

/** The text a value is shown as. */
export function numberText(value: unknown): string {
  return value === undefined || value === null ? '' : String(value);
}
