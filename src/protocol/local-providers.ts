/**
 * Remote providers (a local extension, like `/v1/local/storage`): upstream OpenAI-compatible
 * servers whose models this runtime serves beside its own, each round of a run one stateless
 * upstream request. Configured only by trusted code — the app's settings, same-origin page
 * code, or `startLocalRuntime({ providers })`:
 * - `POST /v1/local/providers` (ProviderCreate) creates or replaces one;
 * - `GET /v1/local/providers` lists them, `GET`/`DELETE /v1/local/providers/{id}` one;
 * - `GET /v1/local/providers/{id}/models` asks the upstream for its models now (the app's
 *   "Test connection"), as `/v1/models` lists them: `<provider id>/<upstream model id>`.
 * Answers never contain a key: `has_api_key` and at most its last 4 characters.
 * zod's mini build (the UI bundles these); answers are not strict, a newer runtime may add a field.
 */
import * as z from 'zod/mini';

/** 1–32 of `[a-z0-9-]`: the prefix of its models' ids (`lab/<model>`). */
export const ProviderId = z.string().check(z.regex(/^[a-z0-9-]{1,32}$/));

/** Which wire the upstream is spoken to in: Chat Completions (every server) or Responses (`store: false`). */
export const ProviderApi = z.enum(['chat_completions', 'responses']);
export type ProviderApi = z.infer<typeof ProviderApi>;

/** Where a key is kept: this origin's IndexedDB, or the runtime's memory until it stops. */
export const KeyStorage = z.enum(['persistent', 'session']);
export type KeyStorage = z.infer<typeof KeyStorage>;

export const MAX_PROVIDER_MODELS = 256;
export const DEFAULT_PROVIDER_CONCURRENCY = 4;

/** Body of `POST /v1/local/providers`. Strict: a misspelt field is an error, not a silently missing setting. */
export const ProviderCreate = z.strictObject({
  id: ProviderId,
  /** The upstream's OpenAI base URL, e.g. `http://127.0.0.1:8080/v1`: `https:` anywhere, `http:` only for loopback and private-network hosts. */
  base_url: z.string().check(z.minLength(1), z.maxLength(2048)),
  api: z.optional(ProviderApi),
  api_key: z.optional(z.string().check(z.minLength(1), z.maxLength(4096))),
  /** Default `persistent`. */
  key_storage: z.optional(KeyStorage),
  /** The upstream model ids to serve; absent: whatever its `GET /models` lists. */
  models: z.optional(z.array(z.string().check(z.minLength(1), z.maxLength(256))).check(z.minLength(1), z.maxLength(MAX_PROVIDER_MODELS))),
  /** Tokens its models attend to, when its `GET /models` does not say (Ollama, OpenAI). */
  context_window: z.optional(z.number().check(z.int(), z.positive(), z.maximum(100_000_000))),
  /** Responses it runs at once (its own line, beside the local engine's). Default 4. */
  concurrency: z.optional(z.number().check(z.int(), z.minimum(1), z.maximum(64))),
});
export type ProviderCreate = z.infer<typeof ProviderCreate>;

/** A provider as the API shows it: no key, ever. */
export const ProviderObject = z.object({
  object: z.literal('local.provider'),
  id: z.string(),
  base_url: z.string(),
  api: ProviderApi,
  models: z.nullable(z.array(z.string())),
  context_window: z.nullable(z.number()),
  concurrency: z.number(),
  has_api_key: z.boolean(),
  /** The key's last 4 characters (keys of 12 characters or more), to tell keys apart. */
  api_key_last4: z.nullable(z.string()),
  /** Where the key is kept; `session` with `has_api_key: false`: the runtime restarted, enter it again. */
  key_storage: z.nullable(KeyStorage),
  /** `settings`: stored in IndexedDB (the app, or same-origin code); `startup`: given to `startLocalRuntime`, kept in memory. */
  source: z.enum(['settings', 'startup']),
  created_at: z.number(),
});
export type ProviderObject = z.infer<typeof ProviderObject>;

export const ProviderList = z.object({ object: z.literal('list'), data: z.array(ProviderObject) });
export type ProviderList = z.infer<typeof ProviderList>;

export const ProviderDeleted = z.object({ id: z.string(), object: z.literal('local.provider.deleted'), deleted: z.literal(true) });
export type ProviderDeleted = z.infer<typeof ProviderDeleted>;

/** One model of `GET /v1/local/providers/{id}/models` (the `/v1/models` entry it becomes). */
export const ProviderModel = z.object({
  id: z.string(),
  object: z.literal('model'),
  owned_by: z.string(),
  context_window: z.optional(z.number()),
});
export const ProviderModelList = z.object({ object: z.literal('list'), data: z.array(ProviderModel) });
export type ProviderModelList = z.infer<typeof ProviderModelList>;
