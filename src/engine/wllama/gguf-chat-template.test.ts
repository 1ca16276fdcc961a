import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChatMessage } from '../../chat/chat-message';
import { GgufChatTemplate, parseChatTemplate, renderWithTemplate } from './gguf-chat-template';

/** Qwen2.5-Instruct's `tokenizer_config.json` chat template, as its GGUFs carry it. */
const QWEN25_TEMPLATE = String.raw`{%- if tools %}
    {{- '<|im_start|>system\n' }}
    {%- if messages[0]['role'] == 'system' %}
        {{- messages[0]['content'] }}
    {%- else %}
        {{- 'You are Qwen, created by Alibaba Cloud. You are a helpful assistant.' }}
    {%- endif %}
    {{- "\n\n# Tools\n\nYou may call one or more functions to assist with the user query.\n\nYou are provided with function signatures within <tools></tools> XML tags:\n<tools>" }}
    {%- for tool in tools %}
        {{- "\n" }}
        {{- tool | tojson }}
    {%- endfor %}
    {{- "\n</tools>\n\nFor each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n{\"name\": <function-name>, \"arguments\": <args-json-object>}\n</tool_call><|im_end|>\n" }}
{%- else %}
    {%- if messages[0]['role'] == 'system' %}
        {{- '<|im_start|>system\n' + messages[0]['content'] + '<|im_end|>\n' }}
    {%- else %}
        {{- '<|im_start|>system\nYou are Qwen, created by Alibaba Cloud. You are a helpful assistant.<|im_end|>\n' }}
    {%- endif %}
{%- endif %}
{%- for message in messages %}
    {%- if (message.role == "user") or (message.role == "system" and not loop.first) or (message.role == "assistant" and not message.tool_calls) %}
        {{- '<|im_start|>' + message.role + '\n' + message.content + '<|im_end|>' + '\n' }}
    {%- elif message.role == "assistant" %}
        {{- '<|im_start|>' + message.role }}
        {%- if message.content %}
            {{- '\n' + message.content }}
        {%- endif %}
        {%- for tool_call in message.tool_calls %}
            {%- if tool_call.function is defined %}
                {%- set tool_call = tool_call.function %}
            {%- endif %}
            {{- '\n<tool_call>\n{"name": "' }}
            {{- tool_call.name }}
            {{- '", "arguments": ' }}
            {{- tool_call.arguments | tojson }}
            {{- '}\n</tool_call>' }}
        {%- endfor %}
        {{- '<|im_end|>\n' }}
    {%- elif message.role == "tool" %}
        {%- if (loop.index0 == 0) or (messages[loop.index0 - 1].role != "tool") %}
            {{- '<|im_start|>user' }}
        {%- endif %}
        {{- '\n<tool_response>\n' }}
        {{- message.content }}
        {{- '\n</tool_response>' }}
        {%- if loop.last or (messages[loop.index0 + 1].role != "tool") %}
            {{- '<|im_end|>\n' }}
        {%- endif %}
    {%- endif %}
{%- endfor %}
{%- if add_generation_prompt %}
    {{- '<|im_start|>assistant\n' }}
{%- endif %}
`;

/** SmolLM2-Instruct's chat template. */
const SMOLLM2_TEMPLATE = `{% for message in messages %}{% if loop.first and messages[0]['role'] != 'system' %}{{ '<|im_start|>system
You are a helpful AI assistant named SmolLM, trained by Hugging Face<|im_end|>
' }}{% endif %}{{'<|im_start|>' + message['role'] + '
' + message['content'] + '<|im_end|>' + '
'}}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant
' }}{% endif %}`;

/** The end of Qwen3's chat template: the `enable_thinking` switch. */
const QWEN3_TAIL = String.raw`{%- for message in messages %}{{- '<|im_start|>' + message.role + '\n' + message.content + '<|im_end|>\n' }}{%- endfor %}
{%- if add_generation_prompt %}
    {{- '<|im_start|>assistant\n' }}
    {%- if enable_thinking is defined and enable_thinking is false %}
        {{- '<think>\n\n</think>\n\n' }}
    {%- endif %}
{%- endif %}`;

afterEach(() => vi.restoreAllMocks());

describe('GgufChatTemplate', () => {
  it("renders Qwen2.5's template over messages with tool calls and results already in their content", () => {
    const call = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>';
    const messages: ChatMessage[] = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Weather in Paris?' },
      { role: 'assistant', content: call },
      { role: 'tool', content: '{"temp": 21}' },
    ];
    expect(new GgufChatTemplate(QWEN25_TEMPLATE).render(messages)).toBe(
      '<|im_start|>system\nBe brief.<|im_end|>\n' +
        '<|im_start|>user\nWeather in Paris?<|im_end|>\n' +
        `<|im_start|>assistant\n${call}<|im_end|>\n` +
        '<|im_start|>user\n<tool_response>\n{"temp": 21}\n</tool_response><|im_end|>\n' +
        '<|im_start|>assistant\n',
    );
  });

  it("renders Qwen2.5's default system prompt when there is none (no tools variable is passed)", () => {
    expect(new GgufChatTemplate(QWEN25_TEMPLATE).render([{ role: 'user', content: 'Hi' }])).toBe(
      '<|im_start|>system\nYou are Qwen, created by Alibaba Cloud. You are a helpful assistant.<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n',
    );
  });

  it("renders SmolLM2's template", () => {
    expect(new GgufChatTemplate(SMOLLM2_TEMPLATE).render([{ role: 'user', content: 'Hi' }])).toBe(
      '<|im_start|>system\nYou are a helpful AI assistant named SmolLM, trained by Hugging Face<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n',
    );
  });

  it('passes enable_thinking only when defined', () => {
    const template = new GgufChatTemplate(QWEN3_TAIL);
    const messages: ChatMessage[] = [{ role: 'user', content: 'Hi' }];
    const head = '<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n';
    expect(template.render(messages)).toBe(head);
    expect(template.render(messages, { enableThinking: true })).toBe(head);
    expect(template.render(messages, { enableThinking: false })).toBe(`${head}<think>\n\n</think>\n\n`);
  });

  it("renders bos_token and eos_token as given, '' by default", () => {
    const template = new GgufChatTemplate("{{ bos_token }}{% for m in messages %}{{ m.content + eos_token }}{% endfor %}");
    expect(template.render([{ role: 'user', content: 'Hi' }])).toBe('Hi');
    expect(template.render([{ role: 'user', content: 'Hi' }], { bosToken: '<s>', eosToken: '</s>' })).toBe('<s>Hi</s>');
  });
});

describe('parseChatTemplate / renderWithTemplate', () => {
  it('return null with a warning naming the model when the template does not parse or fails', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(parseChatTemplate('{% if %}', 'some-model')).toBeNull();
    expect(warn).toHaveBeenLastCalledWith(expect.stringContaining('some-model'));

    const failing = parseChatTemplate("{{ raise_exception('System role not supported') }}", 'other-model')!;
    expect(renderWithTemplate(failing, 'other-model', [{ role: 'user', content: 'Hi' }])).toBeNull();
    expect(warn).toHaveBeenLastCalledWith(expect.stringMatching(/other-model.*System role not supported/));
  });
});
