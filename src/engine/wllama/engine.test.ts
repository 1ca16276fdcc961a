import { describe, expect, it, vi } from 'vitest';
import type { Rendered } from '../../chat/chat-format';
import { ApiError } from '../../shared/api-error';
import { FakeWllama, type FakeCompletionScript, type FakeLoadScript } from '../../../test/fakes/fake-wllama';
import { STORIES_MODEL_ID, TINY_LLAMA_MODEL_ID } from './gguf-catalog';
import { LLAMA, MIRROR, QWEN, WASM, collect, rejection, request, setup, signal } from '../../../test/support/wllama-engine-harness';
import type { WllamaGeneration } from './generation';
import { cpuEngineUnsupported } from '../wasm-support';
import { WASM_FOUND_FINE } from './errors';

const loadWith = (script: FakeLoadScript, completions: FakeCompletionScript[] = []) => new FakeWllama(script, completions);

describe('WllamaEngine: loading', () => {
  it('a browser the engine cannot run in fails the load with that reason, before anything starts', async () => {
    const { engine, createWllama } = setup({ engine: { checkSupport: (model) => cpuEngineUnsupported(model, () => false) } });
    const err = await rejection(engine.ensureLoaded(QWEN, signal()));
    expect(err.data.code).toBe('wasm_unsupported');
    expect(err.message).toContain(QWEN);
    expect(createWllama).not.toHaveBeenCalled();
  });

  it('loads {modelBase}/{file} with the catalog context, CPU only, reporting download → compile → ready', async () => {
    const fake = loadWith({ progress: [{ loaded: 100, total: 400 }, { loaded: 300, total: 400 }, { loaded: 400, total: 400 }] });
    const { engine, progress } = setup({ fakes: [fake] });
    await engine.ensureLoaded(QWEN, signal());

    expect(fake.loadedUrl).toBe(`${MIRROR}/Qwen2.5-0.5B-Instruct-Q4_K_M.gguf`);
    expect(fake.loadParams).toMatchObject({ n_ctx: 4096, n_gpu_layers: 0 });
    expect(progress.map((p) => [p.phase, p.progress, p.loadedBytes, p.totalBytes])).toEqual([
      ['download', 0, 0, 398_000_000],
      ['download', 0.25, 100, 400],
      ['download', 0.75, 300, 400],
      ['compile', 0, 400, 400],
      ['ready', 1, undefined, undefined],
    ]);
    expect(progress.every((p) => p.model === QWEN)).toBe(true);
    expect(engine.loadedModel()).toBe(QWEN);
    expect(engine.loadReports.latest()?.phase).toBe('ready');
  });

  it('uses the Hugging Face repo without a mirror, and the catalog size when the server sends no length', async () => {
    const fake = loadWith({ progress: [{ loaded: 50, total: 0 }] });
    const { engine, progress } = setup({ fakes: [fake], engine: { modelBase: undefined } });
    await engine.ensureLoaded(QWEN, signal());
    expect(fake.loadedUrl).toBe('https://huggingface.co/bartowski/Qwen2.5-0.5B-Instruct-GGUF/resolve/main/Qwen2.5-0.5B-Instruct-Q4_K_M.gguf');
    expect(progress[1]).toMatchObject({ phase: 'download', loadedBytes: 50, totalBytes: 398_000_000 });
  });

  it('resolves at once when the model is loaded, and loads once for concurrent callers', async () => {
    const { engine, createWllama } = setup();
    await Promise.all([engine.ensureLoaded(QWEN, signal()), engine.ensureLoaded(QWEN, signal())]);
    await engine.ensureLoaded(QWEN, signal());
    expect(createWllama).toHaveBeenCalledTimes(1);
  });

  it('exits the loaded engine before loading another model', async () => {
    const { engine, created } = setup({ fakes: [new FakeWllama(), new FakeWllama()] });
    await engine.ensureLoaded(QWEN, signal());
    await engine.ensureLoaded(LLAMA, signal());
    expect(created).toHaveLength(2);
    expect(created[0]!.calls).toEqual(['load', 'exit']);
    expect(created[1]!.calls).toEqual(['load']);
    expect(engine.loadedModel()).toBe(LLAMA);
  });

  it('waits for a generation being read before switching models', async () => {
    const first = new FakeWllama({}, [{ tokens: ['a', 'b'], gated: true }]);
    const { engine, created } = setup({ fakes: [first, new FakeWllama()] });
    const generation = engine.generate(request());
    first.release(1); // the prompt_progress chunk
    await generation.usage;
    const reading = collect(generation);
    const switching = engine.ensureLoaded(LLAMA, signal());
    await new Promise((r) => setTimeout(r, 10));
    expect(first.exited).toBe(false);
    first.release(4); // a, b, EOS, the last chunk
    expect((await reading).map((d) => d.text).join('')).toBe('ab');
    await switching;
    expect(first.exited).toBe(true);
    expect(created).toHaveLength(2);
  });

  it('stops a generation nobody reads before switching models', async () => {
    const first = new FakeWllama({}, [{ tokens: ['a', 'b'], gated: true }]);
    const { engine } = setup({ fakes: [first, new FakeWllama()] });
    const generation = engine.generate(request()) as WllamaGeneration;
    first.release(1);
    await generation.usage;
    const switching = engine.ensureLoaded(LLAMA, signal());
    await new Promise((r) => setTimeout(r, 5));
    expect(first.completions[0]!.abortSignal?.aborted).toBe(true);
    await switching;
    expect(first.exited).toBe(true);
    expect(generation.finishReason()).toBe('abort');
  });

  it('rejects a file llama.cpp read no vocabulary from, naming the URL, and drops it from the cache', async () => {
    // Read on the catalog's q8_0 KV cache, then again on f16 (an empty read can also be a
    // model whose heads do not fit that cache): empty both times, it is not a model.
    const [onQ8, onF16] = [loadWith({ info: { n_vocab: 0, n_ctx: 0 } }), loadWith({ info: { n_vocab: 0, n_ctx: 0 } })];
    const { engine, created } = setup({ fakes: [onQ8, onF16, new FakeWllama()] });
    const err = await rejection(engine.ensureLoaded(QWEN, signal()));
    const url = `${MIRROR}/Qwen2.5-0.5B-Instruct-Q4_K_M.gguf`;
    expect(err.data).toMatchObject({ status: 500, code: 'model_load_failed' });
    expect(err.message).toContain(`${url} is not a valid GGUF model`);
    expect(onQ8.loadParams).toMatchObject({ cache_type_k: 'q8_0' });
    expect(onF16.loadParams).not.toHaveProperty('cache_type_k');
    expect(onF16.deletedFromCache).toEqual([url]);
    expect([onQ8.exited, onF16.exited]).toEqual([true, true]);
    expect(engine.loadedModel()).toBeNull();
    // The next attempt loads afresh.
    await engine.ensureLoaded(QWEN, signal());
    expect(created).toHaveLength(3);
  });

  it('maps a 404 to model_download_failed naming the URL', async () => {
    const url = `${MIRROR}/Qwen2.5-0.5B-Instruct-Q4_K_M.gguf`;
    const { engine } = setup({ fakes: [loadWith({ progress: [], error: new Error(`Failed to fetch ${url}: HTTP 404`) })] });
    const err = await rejection(engine.ensureLoaded(QWEN, signal()));
    expect(err.data).toMatchObject({ status: 500, code: 'model_download_failed' });
    expect(err.message).toContain(`${url} answered HTTP 404`);
  });

  it('times out an engine that never starts, naming the wasm URL and what a probe of it found', async () => {
    const hung = loadWith({ hang: true });
    const fetch = vi.fn(async () => new Response(null, { status: 404 }));
    const { engine } = setup({ fakes: [hung], engine: { loadTimeoutMs: 30, fetch } });
    const err = await rejection(engine.ensureLoaded(QWEN, signal()));
    expect(err.data.code).toBe('model_load_failed');
    expect(err.message).toContain(`did not start within 0 s`);
    expect(err.message).toContain(`${WASM} answered HTTP 404`);
    expect(fetch).toHaveBeenCalledWith(WASM);
    expect(hung.exited).toBe(true);
    expect(engine.loadedModel()).toBeNull();
  });

  it.each([
    ['a page that is not wasm', () => new Response('<html>not found</html>', { headers: { 'content-type': 'text/html' } }), `${WASM} is not a WebAssembly module this browser can compile (22 bytes)`],
    ['a valid wasm: the worker itself did not come up', () => new Response(Uint8Array.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]), { headers: { 'content-type': 'application/wasm' } }), `${WASM} ${WASM_FOUND_FINE}`],
    ['no answer', () => Promise.reject(new TypeError('Failed to fetch')), `${WASM} could not be fetched (Failed to fetch)`],
  ])('a start timeout says what the probe found: %s', async (_what, answer, says) => {
    const { engine } = setup({ fakes: [loadWith({ hang: true })], engine: { loadTimeoutMs: 30, fetch: vi.fn(async () => answer()) } });
    const err = await rejection(engine.ensureLoaded(QWEN, signal()));
    expect(err.message).toContain(says);
  });

  it('times out a download that stops sending data', async () => {
    const stalled = loadWith({ progress: [{ loaded: 10, total: 1000 }], hang: true });
    const { engine } = setup({ fakes: [stalled], engine: { loadTimeoutMs: 30 } });
    const err = await rejection(engine.ensureLoaded(QWEN, signal()));
    expect(err.data.code).toBe('model_download_failed');
    expect(err.message).toMatch(/Downloading Qwen2\.5-0\.5B-Instruct-Q4_K_M-GGUF stalled: no data from https:\/\/mirror\.example\/gguf\/Qwen2\.5-0\.5B-Instruct-Q4_K_M\.gguf/);
  });

  it('stops the load when the signal aborts', async () => {
    const hung = loadWith({ hang: true });
    const { engine } = setup({ fakes: [hung] });
    const controller = new AbortController();
    const loading = engine.ensureLoaded(QWEN, controller.signal);
    await new Promise((r) => setTimeout(r, 5));
    controller.abort(new Error('client gone'));
    await expect(loading).rejects.toThrow('client gone');
    await new Promise((r) => setTimeout(r, 5));
    expect(hung.exited).toBe(true);
    expect(engine.loadedModel()).toBeNull();
  });

  it('rejects unknown models with model_not_found, and test models without a mirror with a clear error', async () => {
    const { engine } = setup();
    const err = await rejection(engine.ensureLoaded('nope', signal()));
    expect(err.data).toMatchObject({ status: 404, code: 'model_not_found' });
    const { engine: noMirror } = setup({ engine: { modelBase: undefined } });
    const missing = await rejection(noMirror.ensureLoaded(TINY_LLAMA_MODEL_ID, signal()));
    expect(missing.message).toContain('served only from a model mirror (modelBase), as test-tiny-llama.gguf');
  });

  it('reports the catalog context window until loaded, then min(n_ctx, n_ctx_train)', async () => {
    const { engine } = setup({ fakes: [loadWith({ info: { n_ctx_train: 1024 } })] });
    const window = () => engine.models().find((m) => m.id === STORIES_MODEL_ID)!.context_window;
    expect(window()).toBe(2048);
    await engine.ensureLoaded(STORIES_MODEL_ID, signal());
    expect(window()).toBe(1024);
    expect(engine.models().find((m) => m.id === STORIES_MODEL_ID)).toMatchObject({ hidden: true, chat_format: 'raw-completion', download_bytes: 1_185_376 });
  });

  it('unload() exits the engine', async () => {
    const { engine, fake } = setup();
    await engine.ensureLoaded(QWEN, signal());
    await engine.unload();
    expect(fake().exited).toBe(true);
    expect(engine.loadedModel()).toBeNull();
  });
});

describe('WllamaEngine: generating', () => {
  it('streams one delta per token with exact usage, loading the model on demand', async () => {
    const fake = new FakeWllama({}, [{ tokens: ['Hel', 'lo', '!'], promptTokens: 12, cachedTokens: 4 }]);
    const { engine } = setup({ fakes: [fake] });
    const generation = engine.generate(request());
    expect(await generation.usage).toEqual({ inputTokens: 12, cachedTokens: 4 });
    const deltas = await collect(generation);
    // The EOS token comes as a last delta with no text, so the count matches llama.cpp's.
    expect(deltas).toEqual([
      { text: 'Hel', tokens: 1 },
      { text: 'lo', tokens: 1 },
      { text: '!', tokens: 1 },
      { text: '', tokens: 1 },
    ]);
    expect(generation.finishReason()).toBe('stop');
    expect(await generation.finalUsage).toEqual({
      inputTokens: 12,
      cachedTokens: 4,
      timings: { prefillTokens: 8, timeToFirstTokenMs: 12, prefillTokensPerSecond: 500, decodeTokensPerSecond: 40 },
    });
  });

  it('passes the prompt as rendered and the sampling parameters', async () => {
    const fake = new FakeWllama({ info: { add_bos_token: false } });
    const { engine } = setup({ fakes: [fake] });
    const prompt = '<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n';
    await collect(engine.generate(request({ prompt, maxOutputTokens: 64, temperature: 0, topP: 0.5, stop: ['\n\n'] })));
    expect(fake.completions[0]).toMatchObject({ prompt, stream: true, return_progress: true, max_tokens: 64, temperature: 0, top_p: 0.5, stop: ['\n\n'] });
    await collect(engine.generate(request({ stop: [] })));
    expect(Object.keys(fake.completions[1]!).sort()).toEqual(['abortSignal', 'cache_prompt', 'prompt', 'return_progress', 'stream']);
  });

  it('drops a BOS written as text when llama.cpp adds BOS itself', async () => {
    const fake = new FakeWllama({ info: { add_bos_token: true } });
    const { engine } = setup({ fakes: [fake] });
    const prompt = '<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\nHi<|eot_id|>';
    await collect(engine.generate(request({ model: LLAMA, prompt })));
    expect(fake.completions[0]!.prompt).toBe('<|start_header_id|>user<|end_header_id|>\n\nHi<|eot_id|>');
  });

  it('ends with finish reason length when max tokens are reached', async () => {
    const fake = new FakeWllama({}, [{ tokens: ['1', '2', '3'], finish: 'length' }]);
    const { engine } = setup({ fakes: [fake] });
    const generation = engine.generate(request({ maxOutputTokens: 3 }));
    const deltas = await collect(generation);
    expect(deltas.map((d) => d.text)).toEqual(['1', '2', '3']);
    expect(deltas.reduce((n, d) => n + d.tokens, 0)).toBe(3);
    expect(generation.finishReason()).toBe('length');
  });

  it('passes the token of an empty chunk on to the next delta', async () => {
    const fake = new FakeWllama({}, [{ tokens: ['a', '', 'é', 'b'], finish: 'length' }]);
    const { engine } = setup({ fakes: [fake] });
    expect(await collect(engine.generate(request()))).toEqual([
      { text: 'a', tokens: 1 },
      { text: 'é', tokens: 2 },
      { text: 'b', tokens: 1 },
    ]);
  });

  it('returns within one token of an abort, and frees the request in the background', async () => {
    const fake = new FakeWllama({}, [{ tokens: ['1', '2', '3', '4', '5', '6'], gated: true, finish: 'length' }]);
    const { engine } = setup({ fakes: [fake] });
    const controller = new AbortController();
    const generation = engine.generate(request({ signal: controller.signal })) as WllamaGeneration;
    fake.release(1);
    await generation.usage;
    const seen: string[] = [];
    const reading = (async () => {
      for await (const delta of generation) {
        seen.push(delta.text);
        if (seen.length < 2) fake.release(1);
      }
    })();
    fake.release(1);
    await vi.waitFor(() => expect(seen).toEqual(['1', '2']));
    // The iterator now waits for token 3, which wllama has not produced yet.
    controller.abort();
    await reading;
    expect(seen).toEqual(['1', '2']);
    expect(generation.finishReason()).toBe('abort');
    expect(fake.completions[0]!.abortSignal?.aborted).toBe(true);
    let ended = false;
    void generation.ended.then(() => (ended = true));
    await new Promise((r) => setTimeout(r, 5));
    expect(ended).toBe(false); // wllama's read in flight has not returned yet
    fake.release(1);
    await generation.ended;
    expect(fake.chunksRead).toBe(4); // the progress chunk, 1, 2, and the one read in flight
    // One token per prompt character in the fake, plus BOS.
    expect(await generation.finalUsage).toEqual({ inputTokens: request().input.prompt.length + 1, cachedTokens: 0 });
  });

  it('aborts wllama when the consumer stops reading', async () => {
    const fake = new FakeWllama({}, [{ tokens: ['a', 'b', 'c'] }]);
    const { engine } = setup({ fakes: [fake] });
    const generation = engine.generate(request()) as WllamaGeneration;
    for await (const delta of generation) {
      expect(delta.text).toBe('a');
      break;
    }
    await generation.ended;
    expect(fake.completions[0]!.abortSignal?.aborted).toBe(true);
    expect(generation.finishReason()).toBe('abort');
  });

  it('rejects usage with context_length_exceeded when llama.cpp refuses the prompt, and keeps the model', async () => {
    const refuse = new Error('request (302 tokens) exceeds the available context size (256 tokens), try increasing it');
    const fake = new FakeWllama({}, [{ tokens: [], refuse }]);
    const { engine } = setup({ fakes: [fake] });
    const generation = engine.generate(request());
    const err = await rejection(generation.usage);
    expect(err.data).toMatchObject({ status: 400, code: 'context_length_exceeded', param: 'input' });
    expect(err.message).toContain('302 prompt tokens, 256 allowed');
    await expect(collect(generation)).rejects.toBe(err);
    expect(fake.exited).toBe(false);
    expect(engine.loadedModel()).toBe(QWEN);
  });

  it('fails mid-stream with engine_error and loads afresh for the next request', async () => {
    const broken = new FakeWllama({}, [{ tokens: ['a', 'b'], failAt: { index: 1, error: new Error('RuntimeError: memory access out of bounds') } }]);
    const { engine, created } = setup({ fakes: [broken, new FakeWllama()] });
    const generation = engine.generate(request());
    const deltas: string[] = [];
    const err = await (async () => {
      try {
        for await (const delta of generation) deltas.push(delta.text);
      } catch (e) {
        return e as ApiError;
      }
      throw new Error('expected a failure');
    })();
    expect(deltas).toEqual(['a']);
    expect(err).toBeInstanceOf(ApiError);
    expect(err.data.code).toBe('engine_error');
    expect(broken.exited).toBe(true);
    expect(await collect(engine.generate(request()))).toHaveLength(3);
    expect(created).toHaveLength(2);
  });

  it('rejects usage with the abort reason when aborted before the model loaded', async () => {
    const { engine } = setup({ fakes: [loadWith({ hang: true })] });
    const controller = new AbortController();
    const generation = engine.generate(request({ signal: controller.signal }));
    controller.abort(new Error('cancelled'));
    await expect(generation.usage).rejects.toThrow('cancelled');
    expect(await collect(generation)).toEqual([]);
    expect(generation.finishReason()).toBe('abort');
  });

  it('fails a generation for an unknown model without touching the loaded one', async () => {
    const { engine, fake } = setup();
    await engine.ensureLoaded(QWEN, signal());
    const err = await rejection(engine.generate(request({ model: 'nope' })).usage);
    expect(err.data.code).toBe('model_not_found');
    expect(fake().exited).toBe(false);
    expect(engine.loadedModel()).toBe(QWEN);
  });

  it('counts tokens conservatively without a tokenizer, on our prompt before the model is loaded', async () => {
    const { engine } = setup();
    expect(await engine.countTokens(QWEN, { messages: [{ role: 'user', content: 'a'.repeat(300) }], prompt: 'abcdef' })).toBe(2);
  });
});

describe("WllamaEngine: the model's own chat template", () => {
  /** A ChatML template with a marker, so the tests can tell its prompt from the family's. */
  const CHATML = String.raw`{%- for m in messages %}{{- '<|im_start|>' + m.role + '\n' + m.content + '<|im_end|>\n' }}{%- endfor %}
{%- if add_generation_prompt %}{{- '<|im_start|>assistant\n' }}{%- endif %}
{%- if enable_thinking is defined and enable_thinking is false %}{{- '<think>\n\n</think>\n\n' }}{%- endif %}`;
  const FAMILY_PROMPT = 'the family prompt';
  const messages: Rendered['messages'] = [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Hi' },
  ];

  it('renders the messages with the template the GGUF carries, passing enable_thinking when set', async () => {
    const fake = new FakeWllama({ chatTemplate: CHATML });
    const { engine } = setup({ fakes: [fake] });
    await collect(engine.generate(request({ messages, prompt: FAMILY_PROMPT })));
    await collect(engine.generate(request({ messages, prompt: FAMILY_PROMPT, enableThinking: false })));
    const expected = '<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n';
    expect(fake.completions.map((c) => c.prompt)).toEqual([expected, `${expected}<think>\n\n</think>\n\n`]);
  });

  it("counts what it will send: the template's prompt once the model is loaded", async () => {
    const fake = new FakeWllama({ chatTemplate: CHATML });
    const { engine } = setup({ fakes: [fake] });
    const input: Rendered = { messages, prompt: FAMILY_PROMPT };
    expect(await engine.countTokens(QWEN, input)).toBe(Math.ceil(FAMILY_PROMPT.length / 3));
    await engine.ensureLoaded(QWEN, signal());
    await collect(engine.generate(request(input)));
    const sent = fake.completions[0]!.prompt;
    expect(sent).not.toBe(FAMILY_PROMPT);
    expect(await engine.countTokens(QWEN, input)).toBe(Math.ceil(sent.length / 3));
  });

  it('uses the prompt our chat format rendered when the GGUF has no template', async () => {
    const fake = new FakeWllama();
    const { engine } = setup({ fakes: [fake] });
    await collect(engine.generate(request({ messages, prompt: FAMILY_PROMPT })));
    expect(fake.completions[0]!.prompt).toBe(FAMILY_PROMPT);
  });

  it('does not double BOS: bos_token renders empty, and a BOS the template writes literally is dropped when llama.cpp adds one', async () => {
    const template = "{{ bos_token }}<|begin_of_text|>{% for m in messages %}{{ m.content }}{% endfor %}";
    const adds = new FakeWllama({ chatTemplate: template, info: { add_bos_token: true } });
    const { engine } = setup({ fakes: [adds] });
    await collect(engine.generate(request({ model: LLAMA, messages, prompt: FAMILY_PROMPT })));
    expect(adds.completions[0]!.prompt).toBe('Be brief.Hi');

    const doesNot = new FakeWllama({ chatTemplate: template, info: { add_bos_token: false } });
    const other = setup({ fakes: [doesNot] });
    await collect(other.engine.generate(request({ model: LLAMA, messages, prompt: FAMILY_PROMPT })));
    expect(doesNot.completions[0]!.prompt).toBe('<|begin_of_text|>Be brief.Hi');
  });

  it('falls back to our prompt, warning with the model name, when the template fails to render or to parse', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const failing = new FakeWllama({ chatTemplate: "{{ raise_exception('Conversation roles must alternate') }}" });
      const { engine } = setup({ fakes: [failing] });
      await collect(engine.generate(request({ messages, prompt: FAMILY_PROMPT })));
      expect(failing.completions[0]!.prompt).toBe(FAMILY_PROMPT);
      expect(warn).toHaveBeenLastCalledWith(expect.stringMatching(new RegExp(`${QWEN}.*Conversation roles must alternate`)));

      const unreadable = new FakeWllama({ chatTemplate: '{% if %}' });
      const other = setup({ fakes: [unreadable] });
      await collect(other.engine.generate(request({ model: LLAMA, messages, prompt: FAMILY_PROMPT })));
      expect(unreadable.completions[0]!.prompt).toBe(FAMILY_PROMPT);
      expect(warn).toHaveBeenLastCalledWith(expect.stringContaining(LLAMA));
    } finally {
      warn.mockRestore();
    }
  });
});
