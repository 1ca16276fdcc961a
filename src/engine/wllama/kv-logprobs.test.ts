/** WllamaEngine over the fake: llama.cpp's KV-cache reuse across requests, and logprobs (`n_probs`). */
import { describe, expect, it } from 'vitest';
import { FakeWllama } from '../../../test/fakes/fake-wllama';
import { collect, request, setup } from '../../../test/support/wllama-engine-harness';

describe('WllamaEngine: KV cache and logprobs', () => {
  it("asks llama.cpp to reuse its KV cache: a turn that repeats the last one's prompt and reply prefills only what is new", async () => {
    const fake = new FakeWllama({ info: { add_bos_token: false } }, [{ tokens: ['Hel', 'lo'] }, { tokens: ['Fine'] }, { tokens: ['Yes'] }]);
    const { engine } = setup({ fakes: [fake] });
    const turn1 = '<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n';
    await collect(engine.generate(request({ prompt: turn1 })));
    const turn2 = `${turn1}Hello<|im_end|>\n<|im_start|>user\nHow are you?<|im_end|>\n<|im_start|>assistant\n`;
    const second = engine.generate(request({ prompt: turn2 }));
    expect(await second.usage).toEqual({ inputTokens: turn2.length, cachedTokens: `${turn1}Hello`.length });
    await collect(second);
    expect(fake.completions.map((c) => c.cache_prompt)).toEqual([true, true]);
    // Another conversation shares only the first characters of the template.
    const other = engine.generate(request({ prompt: '<|im_start|>user\nBye<|im_end|>\n' }));
    expect((await other.usage).cachedTokens).toBe('<|im_start|>user\n'.length);
    await collect(other);
  });

  it('logprobs: each delta carries its tokens\' entries with top_logprobs alternatives, the EOS token none', async () => {
    const fake = new FakeWllama({}, [{ tokens: ['Hel', 'lo', '!'] }, { tokens: ['a', 'b'], finish: 'length' }, { tokens: ['x'] }]);
    const { engine } = setup({ fakes: [fake] });
    const bytes = (t: string) => [...new TextEncoder().encode(t)];
    const deltas = await collect(engine.generate(request({ topLogprobs: 2 })));
    expect(fake.completions[0]!.n_probs).toBe(2);
    expect(deltas[1]).toEqual({
      text: 'lo',
      tokens: 1,
      logprobs: [{ token: 'lo', logprob: -0.1, bytes: bytes('lo'), top_logprobs: [{ token: 'lo', logprob: -0.1, bytes: bytes('lo') }, { token: 'alt 1', logprob: -1.1, bytes: bytes('alt 1') }] }],
    });
    expect(deltas.map((d) => d.logprobs?.map((l) => l.token))).toEqual([['Hel'], ['lo'], ['!'], []]);
    // top_logprobs 0: llama.cpp is asked for one alternative (or it reports nothing), none is passed on.
    const none = await collect(engine.generate(request({ topLogprobs: 0 })));
    expect(fake.completions[1]!.n_probs).toBe(1);
    expect(none.map((d) => d.logprobs)).toEqual([[{ token: 'a', logprob: 0, bytes: bytes('a'), top_logprobs: [] }], [{ token: 'b', logprob: -0.1, bytes: bytes('b'), top_logprobs: [] }]]);
    // Not asked: not computed.
    const plain = await collect(engine.generate(request()));
    expect(fake.completions[2]).not.toHaveProperty('n_probs');
    expect(plain.every((d) => d.logprobs === undefined)).toBe(true);
  });

  it('logprobs: a token whose text is held back goes out with the delta that releases it', async () => {
    const fake = new FakeWllama({}, [{ tokens: ['a', '', 'é'], finish: 'length' }]);
    const { engine } = setup({ fakes: [fake] });
    const deltas = await collect(engine.generate(request({ topLogprobs: 0 })));
    expect(deltas.map((d) => [d.text, d.tokens, d.logprobs!.map((l) => l.token)])).toEqual([
      ['a', 1, ['a']],
      ['é', 2, ['', 'é']],
    ]);
  });

});
