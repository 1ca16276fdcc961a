/**
 * Turns the first zod issue into an OpenAI-style 400: the message names the parameter in
 * OpenAI's path notation (`tools[0].type`, `metadata.key`) and says what was expected.
 */
import type { z } from 'zod';
import { ApiError, invalidRequest } from '../shared/api-error';
import { Codes } from '../shared/error-codes';

/** `['input', 0, 'content']` → `input[0].content` */
export function paramPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'number') return Number.isInteger(value) ? 'an integer' : 'a decimal';
  return `a ${typeof value}`;
}

function expectedName(expected: string): string {
  switch (expected) {
    case 'number':
      return 'a decimal';
    case 'int':
      return 'an integer';
    case 'array':
      return 'an array';
    case 'object':
      return 'an object';
    default:
      return `a ${expected}`;
  }
}

function quoteList(values: ReadonlyArray<unknown>): string {
  const quoted = values.filter((v) => v !== undefined && v !== null).map((v) => `'${String(v)}'`);
  if (quoted.length <= 1) return quoted.join('');
  return `${quoted.slice(0, -1).join(', ')} and ${quoted[quoted.length - 1]}`;
}

function valueAt(root: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let v: unknown = root;
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

/** The OpenAI-shaped 400 for a failed parse of `input` (the raw request value). */
export function validationError(error: z.ZodError, input: unknown): ApiError {
  const first = error.issues[0];
  if (!first) return invalidRequest('Invalid request.');
  return issueError(first, input);
}

/**
 * A union (`input: string | Item[]`) fails in every branch. The useful report comes from the
 * branch whose type matched the value — the one that got past a root `invalid_type`.
 */
function unionBranchIssue(issue: z.core.$ZodIssueInvalidUnion): z.core.$ZodIssue | null {
  for (const branch of issue.errors) {
    const inner = branch[0];
    if (!inner) continue;
    if (inner.code === 'invalid_type' && inner.path.length === 0) continue;
    const path = inner.path.slice(0, issue.path.length).every((k, i) => k === issue.path[i]) && inner.path.length >= issue.path.length
      ? inner.path
      : [...issue.path, ...inner.path];
    return { ...inner, path } as z.core.$ZodIssue;
  }
  return null;
}

function issueError(issue: z.core.$ZodIssue, input: unknown): ApiError {
  const param = paramPath(issue.path);
  const value = valueAt(input, issue.path);

  switch (issue.code) {
    case 'unrecognized_keys': {
      const key = paramPath([...issue.path, issue.keys[0] ?? '']);
      return invalidRequest(`Unknown parameter: '${key}'.`, key, Codes.unknownParameter);
    }
    case 'invalid_type':
      if (value === undefined)
        return invalidRequest(`Missing required parameter: '${param}'.`, param, Codes.missingRequiredParameter);
      return invalidRequest(
        `Invalid type for '${param}': expected ${expectedName(issue.expected)}, but got ${describe(value)} instead.`,
        param,
        Codes.invalidType,
      );
    case 'invalid_union': {
      const branch = unionBranchIssue(issue);
      if (branch) return issueError(branch, input);
      if ('note' in issue && issue.note === 'No matching discriminator') {
        const options = 'options' in issue && Array.isArray(issue.options) ? issue.options : [];
        const what = param.endsWith('.type') && param.startsWith('tools') ? 'Unsupported tool type' : 'Invalid value';
        return invalidRequest(
          `${what}: '${String(value)}' in '${param}'. Supported values are: ${quoteList(options)}.`,
          param,
          Codes.invalidValue,
        );
      }
      return invalidRequest(`Invalid value for '${param}': ${describe(value)} matches none of the accepted forms.`, param, Codes.invalidValue);
    }
    case 'invalid_value':
      return invalidRequest(
        `Invalid value: '${String(value)}'. Supported values are: ${quoteList(issue.values)}.`,
        param,
        Codes.invalidValue,
      );
    case 'too_big':
    case 'too_small': {
      const above = issue.code === 'too_big';
      const limit = issue.code === 'too_big' ? issue.maximum : issue.minimum;
      if (issue.origin === 'string') {
        const len = typeof value === 'string' ? value.length : 0;
        return invalidRequest(
          `Invalid '${param}': string too ${above ? 'long' : 'short'}. Expected a string with ${above ? 'maximum' : 'minimum'} length ${String(limit)}, but got a string with length ${len} instead.`,
          param,
          above ? Codes.stringAboveMaxLength : Codes.stringBelowMinLength,
        );
      }
      if (issue.origin === 'array') {
        return invalidRequest(
          `Invalid '${param}': array too ${above ? 'long' : 'short'}. Expected an array with ${above ? 'maximum' : 'minimum'} length ${String(limit)}.`,
          param,
          above ? Codes.arrayAboveMaxLength : Codes.arrayBelowMinLength,
        );
      }
      const kind = Number.isInteger(value) ? 'integer' : 'decimal';
      return invalidRequest(
        `Invalid '${param}': ${kind} ${above ? 'above maximum' : 'below minimum'} value. Expected a value ${above ? '<=' : '>='} ${String(limit)}, but got ${String(value)} instead.`,
        param,
        kind === 'integer' ? (above ? Codes.integerAboveMaxValue : Codes.integerBelowMinValue) : above ? Codes.decimalAboveMaxValue : Codes.decimalBelowMinValue,
      );
    }
    case 'custom': {
      if (issue.message.startsWith('UNSUPPORTED:'))
        return invalidRequest(`Unsupported parameter: '${param}'. ${issue.message.slice(12)}`, param, Codes.unsupportedParameter);
      if (issue.message === 'METADATA_KEYS') {
        const n = value && typeof value === 'object' ? Object.keys(value).length : 0;
        return invalidRequest(
          `Invalid '${param}': too many properties. Expected an object with at most 16 properties, but got an object with ${n} properties instead.`,
          param,
          Codes.objectAboveMaxProperties,
        );
      }
      return invalidRequest(`Invalid '${param}': ${issue.message}`, param, Codes.invalidValue);
    }
    default:
      return invalidRequest(`Invalid '${param}': ${issue.message}`, param || null, Codes.invalidValue);
  }
}
