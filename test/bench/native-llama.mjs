// Bench only (npm run bench:cpu): native llama.cpp through node-llama-cpp, installed on demand
// into node_modules/.cache/bench-native (never a dependency of the app), run in its own process.
// Usage: node native-llama.mjs <dir with node_modules/node-llama-cpp> <model.gguf> <json job>
// Prints one JSON line: per thread count, decode tokens/s and first-token ms of each round;
// with `job.longPrompt`, also rounds that decode `job.longTokens` after that long prompt.
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [nativeDir, modelPath, jobJson] = process.argv.slice(2);
const job = JSON.parse(jobJson);
const require = createRequire(path.resolve(nativeDir, "package.json"));
const { getLlama } = await import(pathToFileURL(require.resolve('node-llama-cpp')).href);
const llama = await getLlama({ gpu: false, build: 'never', logLevel: 'error' });
const model = await llama.loadModel({ modelPath });
/** Greedy decode of `tokens` tokens after `prompt` in a fresh sequence of `context`, timed per token. */
async function decode(context, prompt, tokens) {
  const sequence = context.getSequence();
  const input = model.tokenize(prompt);
  const t0 = performance.now();
  let first = -1;
  let n = 0;
  for await (const token of sequence.evaluate(input, { temperature: 0 })) {
    void token;
    n++;
    if (n === 1) first = performance.now();
    if (n >= tokens) break;
  }
  const end = performance.now();
  sequence.dispose();
  return { tokens: n, firstTokenMs: first - t0, decodeTokensPerSecond: (n - 1) / ((end - first) / 1000) };
}

const out = {};
for (const threads of job.threads) {
  // The KV cache the runtime gives the model (`kv_cache` in the GGUF catalog), when it has one.
  const kv = job.kvCache ? { experimentalKvCacheKeyType: job.kvCache, experimentalKvCacheValueType: job.kvCache, flashAttention: true } : {};
  const context = await model.createContext({ contextSize: job.nCtx, threads, batchSize: 512, ...kv });
  const runs = [];
  // Another prompt each round: nothing of it is in the KV cache, as for the browser paths.
  for (let round = 0; round < job.rounds; round++) runs.push(await decode(context, `${round} ${job.prompt}`, job.tokens));
  out[threads] = runs;
  if (job.longPrompt) {
    const long = [];
    for (let round = 0; round < job.rounds; round++) long.push(await decode(context, `${round} ${job.longPrompt}`, job.longTokens));
    out[`${threads} long`] = long;
  }
  await context.dispose();
}
console.log(JSON.stringify(out));
await model.dispose();
await llama.dispose();
