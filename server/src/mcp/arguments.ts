import Ajv, { ErrorObject } from 'ajv';

const ajv = new Ajv({ allErrors: true, strict: false, discriminator: true, verbose: true });

type Schema = { [key: string]: unknown };

const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The `kind` constants of a oneOf whose shapes are told apart by their `kind`; null for any other oneOf. */
function kindConstants(oneOf: unknown): string[] | null {
  if (!Array.isArray(oneOf)) return null;
  const kinds = oneOf.map((shape) => (isSchema(shape) && isSchema(shape.properties) && isSchema(shape.properties.kind) ? shape.properties.kind.const : undefined));
  return kinds.every((kind) => typeof kind === 'string') ? (kinds as string[]) : null;
}

/**
 * A copy of `schema` in which each oneOf of shapes told apart by `kind` is validated as a
 * discriminated union (Ajv's `discriminator`), so a mistake is reported against the shape its
 * `kind` names rather than against every shape. The schema clients see stays plain JSON Schema.
 */
function withDiscriminators(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withDiscriminators);
  if (!isSchema(schema)) return schema;
  const copy: Schema = Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, withDiscriminators(value)]));
  if (kindConstants(schema.oneOf)) copy.discriminator = { propertyName: 'kind' };
  return copy;
}

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
};

function problem(error: ErrorObject): string {
  const path = error.instancePath.split('/').slice(1);
  const at = (...names: string[]) => [...path, ...names].join('.') || 'The arguments';
  const params = error.params as Record<string, unknown>;
  const parent = isSchema(error.parentSchema) ? error.parentSchema : {};
  switch (error.keyword) {
    case 'required':
      return `${at(String(params.missingProperty))} is required.`;
    case 'additionalProperties': {
      const allowed = Object.keys(isSchema(parent.properties) ? parent.properties : {});
      return `${at(String(params.additionalProperty))} is not a known property (${allowed.length ? `known here: ${allowed.join(', ')}` : 'none is'}).`;
    }
    case 'type':
      return `${at()} must be ${TYPE_NAMES[String(params.type)] ?? params.type}.`;
    case 'enum':
      return `${at()} must be one of ${(params.allowedValues as unknown[]).join(', ')}.`;
    case 'discriminator':
      return `${at(String(params.tag))} must be one of ${kindConstants(parent.oneOf)?.join(', ')}.`;
    case 'minLength':
      return params.limit === 1 ? `${at()} must not be empty.` : `${at()} must have at least ${params.limit} characters.`;
    case 'maxLength':
      return `${at()} must have at most ${params.limit} characters.`;
    case 'minimum':
      return `${at()} must be at least ${params.limit}.`;
    case 'maximum':
      return `${at()} must be at most ${params.limit}.`;
    default:
      return `${at()} ${error.message}.`;
  }
}

/**
 * A check of a tool's arguments against its input schema: the problems, each naming the property
 * it is about in the API's dotted form (`sources.0.kind`); none when the arguments fit.
 */
export function argumentsCheck(inputSchema: object): (args: unknown) => string[] {
  const validate = ajv.compile(withDiscriminators(inputSchema) as Schema);
  return (args) => (validate(args) ? [] : [...new Set((validate.errors ?? []).map(problem))]);
}
