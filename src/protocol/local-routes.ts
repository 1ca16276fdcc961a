/**
 * Routes (a local extension, beside `/v1/local/providers`): one model name that runs on this
 * device when it can and on a provider's model when it cannot — or, with `prefer: "remote"`,
 * on the provider and on the device when the provider is out of reach. A route's `id` is
 * listed in `/v1/models` and used as `model` anywhere a model is; each request decides anew
 * and its `response.model` names the model that served it. Configured only by trusted code:
 * - `POST /v1/local/routes` (RouteCreate) creates or replaces one;
 * - `GET /v1/local/routes` lists them, `GET`/`DELETE /v1/local/routes/{id}` one.
 * zod's mini build (the UI bundles these); answers are not strict, a newer runtime may add a field.
 */
import * as z from 'zod/mini';

/**
 * 1–64 of `[A-Za-z0-9._:-]`, starting with a letter or digit. Never a `/`: a name with one
 * is a provider's model (`<provider>/<model>`), so a route can never shadow one.
 */
export const RouteId = z.string().check(z.regex(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/));

/** Which side answers when both can: the device (`local`, the default) or the provider (`remote`). */
export const RoutePrefer = z.enum(['local', 'remote']);
export type RoutePrefer = z.infer<typeof RoutePrefer>;

/** Body of `POST /v1/local/routes`. Strict: a misspelt field is an error, not a silently missing setting. */
export const RouteCreate = z.strictObject({
  id: RouteId,
  /** A model of this device (an id `/v1/models` lists without a provider prefix). */
  local: z.string().check(z.minLength(1), z.maxLength(256)),
  /** A provider's model: `<provider id>/<upstream model id>`. */
  remote: z.string().check(z.minLength(3), z.maxLength(300)),
  /** Default `local`. */
  prefer: z.optional(RoutePrefer),
});
export type RouteCreate = z.infer<typeof RouteCreate>;

/** A route as the API shows it. */
export const RouteObject = z.object({
  object: z.literal('local.route'),
  id: z.string(),
  local: z.string(),
  remote: z.string(),
  prefer: RoutePrefer,
  /** `settings`: stored in IndexedDB (the app, or same-origin code); `startup`: given to `startLocalRuntime`, kept in memory. */
  source: z.enum(['settings', 'startup']),
  created_at: z.number(),
});
export type RouteObject = z.infer<typeof RouteObject>;

export const RouteList = z.object({ object: z.literal('list'), data: z.array(RouteObject) });
export type RouteList = z.infer<typeof RouteList>;

export const RouteDeleted = z.object({ id: z.string(), object: z.literal('local.route.deleted'), deleted: z.literal(true) });
export type RouteDeleted = z.infer<typeof RouteDeleted>;
