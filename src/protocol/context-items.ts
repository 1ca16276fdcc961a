/**
 * Input items that change the context from where they stand rather than say something
 * (openai 7.59): `additional_tools` (tools callable from that point on), `configuration_update`
 * (reasoning effort or text format from that point on) and `compaction_trigger` (compact
 * everything before it, as `POST /v1/responses/compact` does). Each is stored as sent (with
 * an id), listed by `input_items`, and replayed; the model is never shown the item itself,
 * only its effect (server/request/context-settings.ts, triggered-compaction.ts).
 *
 * The tools of an `additional_tools` item are checked against the full `tools` schema — the
 * plug-in tools' entries included — by {@link checkAdditionalTools}, called from the create
 * parse (the tool schema lives there; importing it here would make a cycle).
 */
import { z, type ZodType } from 'zod';
import { MAX_TOOLS } from './request-limits';
import { validationError } from './validation-error';
import { JsonSchemaFormat, PlainTextFormat } from './text-format';
// Types only (a runtime import would be a cycle: the create body imports these items).
import type { ResponseObject } from './response-object';

/** OpenAI's update takes plain text or a JSON schema (not the older JSON mode). */
const UpdateFormat = z.discriminatedUnion('type', [PlainTextFormat, JsonSchemaFormat]);

const ReasoningEffort = z.enum(['none', 'minimal', 'low', 'medium', 'high', 'xhigh']);

/** A tools entry before the create parse checks it as a tool (`type` only, here). */
const ToolEntry = z.looseObject({ type: z.string().min(1) });

export const AdditionalToolsInput = z.strictObject({
  type: z.literal('additional_tools'),
  id: z.string().min(1).max(256).nullish(),
  /** Only `developer` provides tools (OpenAI's param type). */
  role: z.literal('developer'),
  tools: z.array(ToolEntry).min(1).max(MAX_TOOLS),
});

export const ConfigurationUpdateInput = z
  .strictObject({
    type: z.literal('configuration_update'),
    id: z.string().min(1).max(256).nullish(),
    /** Only `effort` can be updated. */
    reasoning: z.strictObject({ effort: ReasoningEffort.nullish() }).optional(),
    text: z.strictObject({ format: UpdateFormat }).optional(),
  })
  .refine((item) => item.reasoning !== undefined || item.text !== undefined, {
    message: "A configuration_update must set 'reasoning', 'text', or both.",
    path: ['reasoning'],
  });

/** Compacts everything before it. Must be the last input item. */
export const CompactionTriggerInput = z.strictObject({
  type: z.literal('compaction_trigger'),
  id: z.string().min(1).max(256).nullish(),
});

export const CONTEXT_INPUT_ITEMS = [AdditionalToolsInput, ConfigurationUpdateInput, CompactionTriggerInput] as const;

/** The items as stored and returned (`input_items`, conversation items, replay). */
export const AdditionalToolsItem = z.object({
  type: z.literal('additional_tools'),
  id: z.string(),
  role: z.literal('developer'),
  /** As a response echoes its `tools` (checked as tools when they came in, secrets dropped before storing). */
  tools: z.array(z.looseObject({ type: z.string() })) as unknown as z.ZodType<ResponseObject['tools']>,
});
export type AdditionalToolsItem = z.infer<typeof AdditionalToolsItem>;

export const ConfigurationUpdateItem = z.object({
  type: z.literal('configuration_update'),
  id: z.string(),
  reasoning: z.object({ effort: ReasoningEffort.nullish() }).optional(),
  text: z.object({ format: UpdateFormat }).optional(),
});
export type ConfigurationUpdateItem = z.infer<typeof ConfigurationUpdateItem>;

/**
 * What is stored of these items. A `compaction_trigger` is not among them: it is consumed,
 * and what it made — the response's `compaction` output item — is what stays (OpenAI's
 * `ResponseItem` and `ConversationItem` have no such item either).
 */
export const CONTEXT_ITEMS = [AdditionalToolsItem, ConfigurationUpdateItem] as const;

/**
 * Checks every `additional_tools` item's tools against `tool` (the request's tools schema),
 * in place: each entry is replaced by its parsed form. Throws the 400 naming
 * `input[i].tools[j]…`; and a `compaction_trigger` anywhere but last is a 400 naming it.
 */
export function checkContextItems(input: unknown, tool: ZodType, body: unknown): void {
  if (!Array.isArray(input)) return;
  const tools = z.array(tool);
  input.forEach((item: { type?: unknown; tools?: unknown[] }, i) => {
    if (item.type === 'compaction_trigger' && i !== input.length - 1)
      throw validationError(new z.ZodError([{ code: 'custom', path: ['input', i, 'type'], message: 'A compaction_trigger must be the last input item: it compacts everything before it.', input: item }]), body);
    if (item.type !== 'additional_tools') return;
    const parsed = tools.safeParse(item.tools);
    if (!parsed.success) throw validationError(new z.ZodError(parsed.error.issues.map((issue) => ({ ...issue, path: ['input', i, 'tools', ...issue.path] }))), body);
    item.tools = parsed.data as unknown[];
  });
}
