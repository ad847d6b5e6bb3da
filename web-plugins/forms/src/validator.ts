/**
 * The browser's JSON Schema validator for react-jsonschema-form.
 *
 * rjsf's usual validator compiles each schema with Ajv, which builds its checks with `new Function`: the
 * shell's Content-Security-Policy has no `unsafe-eval`, so that cannot run here. rjsf's precompiled-validator
 * interface takes one check per schema it will validate against (the form and each `if` condition, as
 * `schemaParser` lists them); each is a @cfworker/json-schema validator, which interprets the schema
 * (draft 2020-12, as on the server) and whose errors are given Ajv's shape so rjsf and `transformErrors`
 * read them as usual.
 */
import { Validator, type OutputUnit, type Schema } from '@cfworker/json-schema';
import { ID_KEY, schemaParser, type RJSFSchema, type ValidatorType } from '@rjsf/utils';
import { createPrecompiledValidator, type CompiledValidateFunction, type ValidatorFunctions } from '@rjsf/validator-ajv8';

type ErrorObject = NonNullable<CompiledValidateFunction['errors']>[number];

/** Keywords whose failure only reports that a part below failed; the part's own error says what. */
const WRAPPERS = new Set([
  'properties', 'items', 'prefixItems', 'additionalItems', 'additionalProperties', 'patternProperties', 'propertyNames',
  'allOf', 'anyOf', 'oneOf', 'if', '$ref', '$recursiveRef', 'dependentSchemas', 'dependencies',
  'unevaluatedItems', 'unevaluatedProperties',
]);

const REQUIRED = /property "(.*)"\.?$/;

/** `#/a/0/b` to its parts. */
export function pointerParts(pointer: string): string[] {
  return pointer
    .replace(/^#\/?/, '')
    .split('/')
    .filter((p) => p !== '')
    .map((p) => decodeURIComponent(p).replace(/~1/g, '/').replace(/~0/g, '~'));
}

function at(schema: unknown, pointer: string): unknown {
  let node: any = schema;
  for (const part of pointerParts(pointer)) node = node?.[part];
  return node;
}

/** cfworker's output units as Ajv's errors: the instance path as a JSON pointer, the missing property of a
 * `required`, the keyword's value as `limit`. */
export function toAjvErrors(units: OutputUnit[], schema: unknown): ErrorObject[] {
  return units
    .filter((u) => !WRAPPERS.has(u.keyword))
    .map((u) => {
      const path = pointerParts(u.instanceLocation);
      const params: Record<string, unknown> = {};
      if (u.keyword === 'required') params.missingProperty = REQUIRED.exec(u.error)?.[1] ?? '';
      else params.limit = at(schema, u.keywordLocation);
      return {
        keyword: u.keyword,
        instancePath: path.map((p) => `/${p}`).join(''),
        schemaPath: u.keywordLocation,
        params,
        message: u.error,
      };
    });
}

function check(schema: RJSFSchema): CompiledValidateFunction {
  const { [ID_KEY]: _id, ...plain } = schema as Record<string, unknown>;
  const engine = new Validator(plain as Schema, '2020-12', false);
  const fn: CompiledValidateFunction = (data: unknown) => {
    const result = engine.validate(data);
    fn.errors = result.valid ? null : toAjvErrors(result.errors, plain);
    return result.valid;
  };
  return fn;
}

/** A validator for one form's schema (build it again when the schema changes). */
export function formValidator(schema: RJSFSchema): ValidatorType {
  const fns: ValidatorFunctions = {};
  for (const [key, part] of Object.entries(schemaParser(schema))) fns[key] = check(part);
  return createPrecompiledValidator(fns, schema);
}
