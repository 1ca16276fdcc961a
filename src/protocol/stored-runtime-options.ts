/**
 * The schema of the runtime options stored for the origin (`client/stored-runtime-options.ts`
 * reads and writes them): what may be stored, within bounds, so no stored value can keep the
 * runtime from starting or open more than its settings allow.
 */
// zod/mini: this module is on the page before `/v1` answers (the package's size budget).
import * as z from 'zod/mini';

const positive = () => z.number().check(z.positive());
const positiveInt = () => z.int().check(z.positive());

const searchProvider = z.union([
  z.strictObject({ type: z.literal('wikipedia'), lang: z.optional(z.string()) }),
  z.strictObject({ type: z.literal('searxng'), baseUrl: z.url() }),
]);
const python = z.strictObject({
  timeLimitMs: z.optional(positive()),
  idleMs: z.optional(positive()),
  maxContainers: z.optional(positiveInt()),
  warmSpare: z.optional(z.boolean()),
  packageBaseUrl: z.optional(z.url()),
});
const webSearch = z.strictObject({
  provider: z.optional(searchProvider),
  allowPrivateNetwork: z.optional(z.boolean()),
  allowHosts: z.optional(z.array(z.string())),
  pageTokens: z.optional(positiveInt()),
  maxResults: z.optional(positiveInt()),
});

// A limit out of range (0 days, negative bytes) would delete everything at the next start.
const retention = z.strictObject({
  maxAgeDays: z.optional(z.nullable(positive())),
  maxBytes: z.optional(z.nullable(z.int().check(z.nonnegative()))),
});

// More threads than a browser could have cores buys nothing and costs a worker each.
const cpu = z.strictObject({ threads: z.optional(z.int().check(z.gte(1), z.lte(256))) });

const fileSearch = z.strictObject({ embeddingModel: z.optional(z.string().check(z.minLength(1), z.maxLength(256))) });

export const storedRuntimeOptionsSchema = z.strictObject({
  retention: z.optional(retention),
  cpu: z.optional(cpu),
  fileSearch: z.optional(fileSearch),
  tools: z.optional(
    z.strictObject({
      python: z.optional(z.union([python, z.literal(false)])),
      webSearch: z.optional(z.union([webSearch, z.literal(false)])),
      programs: z.optional(z.union([z.strictObject({ timeLimitMs: z.optional(positive()) }), z.literal(false)])),
    }),
  ),
});

