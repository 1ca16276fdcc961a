/**
 * Checks objects our server emits against the Open Responses OpenAPI document
 * (`../shared/spec/openresponses-openapi.json`, see that folder's README for the rules).
 *
 * Each `validate*` function returns nothing on success and throws an Error listing every
 * schema violation (instance path, what is wrong, the offending value) otherwise, so a
 * failing test says exactly which field is off:
 *
 * ```ts
 * const res = await client.responses.create({ model, input: 'hi' });
 * validateResponseObject(res);
 * for await (const event of stream) validateStreamEvent(event);
 * ```
 *
 * If the document is missing, `specAvailable` is false and every function is a no-op;
 * tests that must not pass vacuously can `it.skipIf(!specAvailable)`. Under CI
 * (`CI` set, as `.ci/run` does: ./ci-run.ts) a missing document is an error at load instead.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv2020 from 'ajv/dist/2020';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020';
import { isCiRun } from './ci-run';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// `OPENRESPONSES_SPEC` names the document where the checkout has no `../shared` beside it (a git worktree).
const specPath = process.env.OPENRESPONSES_SPEC ?? path.resolve(repoRoot, '../shared/spec/openresponses-openapi.json');
const BASE_ID = 'openresponses.json';
const ERROR_BODY = '{error: ErrorPayload}';

/**
 * OpenAI's names win over the spec's where they differ (spec README); these event types are
 * validated against the spec schema for the same event under its spec name.
 */
const EVENT_TYPE_ALIASES: Readonly<Record<string, string>> = {
  'response.reasoning_text.delta': 'response.reasoning.delta',
  'response.reasoning_text.done': 'response.reasoning.done',
};

function loadSpec(): JsonObject | null {
  let text: string;
  try {
    text = fs.readFileSync(specPath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    // Off locally (a checkout without ../shared), never silently off in CI: there a green
    // run must mean the checks ran.
    if (isCiRun()) {
      throw new Error(
        `[openresponses-validator] ${specPath} not found, and this is a CI run (CI=${process.env.CI}): ` +
          'the Open Responses schema checks may not be switched off here. Put openresponses-openapi.json ' +
          'in ../shared/spec/ (see its README), or unset CI to run without the checks.',
      );
    }
    console.warn(
      `[openresponses-validator] ${specPath} not found: Open Responses schema checks are ` +
        'DISABLED (every validate* call is a no-op). Put the spec file there to enable them.',
    );
    return null;
  }
  // A present but corrupt spec is a real failure, not a reason to skip checks.
  return JSON.parse(text) as JsonObject;
}

const spec = loadSpec();

/** False when the spec file is missing; every validator is then a no-op. */
export const specAvailable: boolean = spec !== null;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function get(root: Json | undefined, ...keys: string[]): Json | undefined {
  let node = root;
  for (const key of keys) {
    if (!isObject(node)) return undefined;
    node = node[key];
  }
  return node;
}

/** The single value a schema allows for `propertyName` (via `const` or a one-item `enum`). */
function tagOf(schema: Json | undefined, schemas: JsonObject, propertyName: string): string | null {
  if (!isObject(schema)) return null;
  const ref = schema.$ref;
  if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) {
    return tagOf(schemas[ref.slice('#/components/schemas/'.length)], schemas, propertyName);
  }
  const required = schema.required;
  if (!Array.isArray(required) || !required.includes(propertyName)) return null;
  const prop = get(schema, 'properties', propertyName);
  if (!isObject(prop)) return null;
  if (typeof prop.const === 'string') return prop.const;
  const values = prop.enum;
  return Array.isArray(values) && values.length === 1 && typeof values[0] === 'string'
    ? values[0]
    : null;
}

/**
 * Copies the schemas, keeping an OpenAPI `discriminator` only where Ajv's discriminator support
 * can use it (a `oneOf` whose every branch pins the property to one distinct value, no
 * `mapping`). There it makes Ajv report the errors of the matching branch only, instead of
 * every branch's. Elsewhere (e.g. `Tool`, `Annotation`: a lone `$ref` plus a discriminator)
 * it is dropped; it is only a hint and never changes what validates.
 */
function prepareSchemas(schemas: JsonObject): JsonObject {
  const visit = (node: Json): Json => {
    if (Array.isArray(node)) return node.map(visit);
    if (!isObject(node)) return node;
    const out: JsonObject = {};
    for (const [key, value] of Object.entries(node)) {
      if (key !== 'discriminator') out[key] = visit(value);
    }
    const disc = node.discriminator;
    const propertyName = get(disc, 'propertyName');
    const branches = node.oneOf;
    if (
      isObject(disc) &&
      disc.mapping === undefined &&
      typeof propertyName === 'string' &&
      Array.isArray(branches)
    ) {
      const tags = branches.map((b) => tagOf(b, schemas, propertyName));
      if (tags.every((t) => t !== null) && new Set(tags).size === tags.length) {
        out.discriminator = { propertyName };
      }
    }
    return out;
  };
  return visit(schemas) as JsonObject;
}

/** Event `type` → `#/components/schemas/...` ref, from the SSE union of `POST /responses`. */
function eventSchemaRefs(doc: JsonObject, schemas: JsonObject): Map<string, string> {
  const refs = new Map<string, string>();
  const responses = get(doc, 'paths', '/responses', 'post', 'responses');
  if (!isObject(responses)) return refs;
  for (const response of Object.values(responses)) {
    const union = get(response, 'content', 'text/event-stream', 'schema', 'oneOf');
    if (!Array.isArray(union)) continue;
    for (const branch of union) {
      const ref = get(branch, '$ref');
      if (typeof ref !== 'string') continue;
      const enumValues = get(
        schemas,
        ref.slice('#/components/schemas/'.length),
        'properties',
        'type',
        'enum',
      );
      if (!Array.isArray(enumValues)) continue;
      for (const value of enumValues) if (typeof value === 'string') refs.set(value, ref);
    }
  }
  return refs;
}

interface Compiled {
  ajv: Ajv2020;
  eventRefs: Map<string, string>;
  cache: Map<string, ValidateFunction>;
}

let compiled: Compiled | null = null;

function setup(doc: JsonObject): Compiled {
  if (compiled) return compiled;
  const schemas = get(doc, 'components', 'schemas');
  if (!isObject(schemas)) throw new Error(`${specPath} has no components.schemas`);
  const ajv = new Ajv2020({ strict: false, allErrors: true, discriminator: true });
  // Registered under one base id so the document's `#/components/schemas/X` refs resolve.
  ajv.addSchema({ $id: BASE_ID, components: { schemas: prepareSchemas(schemas) } });
  compiled = { ajv, eventRefs: eventSchemaRefs(doc, schemas), cache: new Map() };
  return compiled;
}

/** `ref` is a `#/components/schemas/X` ref, or `ERROR_BODY` for `{ error: ErrorPayload }`. */
function validatorFor(c: Compiled, ref: string): ValidateFunction {
  let fn = c.cache.get(ref);
  if (!fn) {
    fn = c.ajv.compile(
      ref === ERROR_BODY
        ? {
            type: 'object',
            required: ['error'],
            properties: { error: { $ref: `${BASE_ID}#/components/schemas/ErrorPayload` } },
          }
        : { $ref: `${BASE_ID}${ref}` },
    );
    c.cache.set(ref, fn);
  }
  return fn;
}

function short(value: unknown, max = 80): string {
  let text: string;
  try {
    text = value === undefined ? 'undefined' : JSON.stringify(value);
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The value at a JSON Pointer (Ajv's `instancePath`). */
function at(data: unknown, pointer: string): unknown {
  if (pointer === '') return data;
  let node: unknown = data;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

function describeError(error: ErrorObject, data: unknown): string {
  const where = error.instancePath || '(root)';
  const what = error.message ?? error.keyword;
  switch (error.keyword) {
    case 'required':
    case 'oneOf':
    case 'anyOf':
      // The "value" is the enclosing object; the message already names the problem.
      return `${where}: ${what}`;
    case 'discriminator':
      return `${where}: ${what} (got ${short((error.params as { tagValue?: unknown }).tagValue)})`;
    case 'enum':
    case 'const':
      return `${where}: ${what} ${short(error.params)} (got ${short(at(data, error.instancePath))})`;
    default:
      return `${where}: ${what} (got ${short(at(data, error.instancePath))})`;
  }
}

const MAX_LINES = 30;

/**
 * Drops the noise of a failed `anyOf`/`oneOf` (e.g. `X | null`): its summary line and a
 * branch's "must be null", whenever a more specific error sits at the same path or below.
 */
function relevant(errors: ErrorObject[]): ErrorObject[] {
  const isNoise = (e: ErrorObject) =>
    e.keyword === 'anyOf' ||
    e.keyword === 'oneOf' ||
    (e.keyword === 'type' && (e.params as { type?: unknown }).type === 'null');
  return errors.filter(
    (e) =>
      !isNoise(e) ||
      !errors.some(
        (other) =>
          !isNoise(other) &&
          (other.instancePath === e.instancePath ||
            other.instancePath.startsWith(`${e.instancePath}/`)),
      ),
  );
}

function check(ref: string, data: unknown, label: string, subject: unknown = data): void {
  if (!spec) return;
  const fn = validatorFor(setup(spec), ref);
  if (fn(data)) return;
  const lines = [...new Set(relevant(fn.errors ?? []).map((e) => describeError(e, data)))];
  const shown = lines.slice(0, MAX_LINES);
  if (lines.length > shown.length) shown.push(`… and ${lines.length - shown.length} more`);
  throw new Error(
    `${label} does not match Open Responses ${ref.split('/').pop() ?? ref} ` +
      `(${lines.length} problem${lines.length === 1 ? '' : 's'}):\n  ${shown.join('\n  ')}\n` +
      `value: ${short(subject, 400)}`,
  );
}

/** Validates a response object (non-streaming answer, or `event.response`) as `ResponseResource`. */
export function validateResponseObject(obj: unknown): void {
  check('#/components/schemas/ResponseResource', obj, 'response object');
}

/**
 * Validates one stream event against the spec schema whose `type` enum matches `event.type`.
 * OpenAI's `response.reasoning_text.delta/.done` are checked as the spec's
 * `response.reasoning.delta/.done`. Throws for a type the spec has no schema for.
 */
export function validateStreamEvent(event: unknown): void {
  if (!spec) return;
  const type = isObject(event) ? event.type : undefined;
  if (typeof type !== 'string') {
    throw new Error(`stream event has no string "type": ${short(event, 200)}`);
  }
  const specType = EVENT_TYPE_ALIASES[type] ?? type;
  const ref = setup(spec).eventRefs.get(specType);
  if (!ref) throw new Error(`no schema for event type ${type} in the Open Responses document`);
  const data = specType === type ? event : { ...(event as JsonObject), type: specType };
  check(ref, data, `stream event ${type}`, event);
}

/** Validates an HTTP error body: `{ error: ErrorPayload }`. */
export function validateErrorBody(body: unknown): void {
  check(ERROR_BODY, body, 'error body');
}

/** Validates one item (output item, or an entry of an input_items listing) as `ItemField`. */
export function validateItem(item: unknown): void {
  check('#/components/schemas/ItemField', item, 'item');
}

/** Validates a `POST /responses/compact` answer as `CompactResource`. */
export function validateCompactResource(obj: unknown): void {
  check('#/components/schemas/CompactResource', obj, 'compacted response');
}

/** Validates a WebSocket mode `error` frame as `WebSocketErrorEvent`. */
export function validateWebSocketError(frame: unknown): void {
  check('#/components/schemas/WebSocketErrorEvent', frame, 'websocket error frame');
}
