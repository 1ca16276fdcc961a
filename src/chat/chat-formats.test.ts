import { describe, expect, it } from 'vitest';
import { chatFormats } from './chat-formats';

describe('chatFormats', () => {
  it('holds every family under its own name', () => {
    expect(Object.keys(chatFormats).sort()).toEqual(['chatml-plain', 'gemma', 'llama3', 'phi3', 'qwen', 'qwen3', 'r1-distill', 'raw-completion', 'smollm2']);
    for (const [name, format] of Object.entries(chatFormats)) expect(format.name).toBe(name);
  });

  it('renders the smallest conversation in each family’s own markup', () => {
    const input = { tools: [], items: [{ type: 'message' as const, role: 'user' as const, text: 'Hi' }] };
    const prompts = Object.fromEntries(Object.entries(chatFormats).map(([name, format]) => [name, format.render(input).prompt]));
    expect(prompts).toEqual({
      qwen: '<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n',
      qwen3: '<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n',
      llama3:
        '<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\nCutting Knowledge Date: December 2023\nToday Date: 26 Jul 2024\n\n<|eot_id|>' +
        '<|start_header_id|>user<|end_header_id|>\n\nHi<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n',
      'r1-distill': '<｜begin▁of▁sentence｜><｜User｜>Hi<｜Assistant｜><think>\n',
      'chatml-plain': '<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n',
      smollm2:
        '<|im_start|>system\nYou are a helpful AI assistant named SmolLM, trained by Hugging Face<|im_end|>\n' +
        '<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n',
      phi3: '<|user|>\nHi<|end|>\n<|assistant|>\n',
      gemma: '<bos><start_of_turn>user\nHi<end_of_turn>\n<start_of_turn>model\n',
      'raw-completion': 'Hi',
    });
  });
});
