/** Row permissions of a dataset (tenant administrators): a user or role sees only the rows where a field
 * matches the rule. The server checks every rule; the limits here only guide the form. */
import type { SubjectType } from '../panel/types';
import type { DatasetField, FieldType } from './types';

export const RULE_OPERATORS = ['eq', 'in', 'like', 'ge', 'le', 'between'] as const;
export type RuleOperator = (typeof RULE_OPERATORS)[number];
export type RuleValue = string | number;

export const MAX_RULES = 200;
export const MAX_VALUES = 1000;
export const MAX_VALUE_LENGTH = 1000;

export interface RowRule {
  id?: string;
  subjectType: SubjectType;
  subjectId: number;
  /** The person's or role's name, as the server answers the rules. */
  subjectName?: string;
  fieldId: string;
  operator: RuleOperator;
  value: RuleValue[];
}

/** How many values an operator takes: exactly one, exactly two (from, to), or one and more. */
export type ValueArity = 'one' | 'two' | 'many';

export function arityOf(operator: RuleOperator): ValueArity {
  if (operator === 'between') return 'two';
  if (operator === 'in') return 'many';
  return 'one';
}

export function operatorsFor(type: FieldType | undefined): RuleOperator[] {
  return type === 'text' ? [...RULE_OPERATORS] : RULE_OPERATORS.filter((op) => op !== 'like');
}

/** The reason a value list does not fit the operator (a translation key under `rowPermissions.form`), or null. */
export function valuesProblem(operator: RuleOperator, values: RuleValue[]): string | null {
  if (!values.length) return 'valueRequired';
  if (values.length > MAX_VALUES) return 'tooManyValues';
  if (values.some((v) => String(v).length > MAX_VALUE_LENGTH)) return 'valueTooLong';
  const arity = arityOf(operator);
  if (arity === 'one' && values.length !== 1) return 'oneValue';
  if (arity === 'two' && values.length !== 2) return 'twoValues';
  return null;
}

const isNumberType = (type: FieldType | undefined) => type === 'integer' || type === 'float';

/** Typed values as the form sends them: numbers for numeric fields when they read as one (the server
 * refuses the rest with its own message). */
export function typedValues(field: DatasetField | undefined, values: RuleValue[]): RuleValue[] {
  return values
    .map((v) => (typeof v === 'string' ? v.trim() : v))
    .filter((v) => v !== '')
    .map((v) => (isNumberType(field?.type) && typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v));
}

export const subjectKey = (r: Pick<RowRule, 'subjectType' | 'subjectId'>) => `${r.subjectType}:${r.subjectId}`;

/** What the save route takes: the rules without their ids (saving replaces them all). */
export const rulesBody = (rules: RowRule[]) => rules.map(({ subjectType, subjectId, fieldId, operator, value }) => ({ subjectType, subjectId, fieldId, operator, value }));
