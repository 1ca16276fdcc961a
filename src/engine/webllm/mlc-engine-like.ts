/**
 * The port to web-llm: the part of its `MLCEngine` this adapter uses, so tests can put a
 * fake (test/fakes/fake-mlc-engine.ts) where the real engine goes.
 */
import type { ChatCompletionChunk, ChatCompletionRequestStreaming, MLCEngineConfig, MLCEngineInterface } from '@mlc-ai/web-llm';

/** The chat-completions surface used here; web-llm's `MLCEngine` has it (and more). */
export interface ChatCompletionsLike {
  create(request: ChatCompletionRequestStreaming): Promise<AsyncIterable<ChatCompletionChunk>>;
}

/** The subset of web-llm's engine this adapter uses: what a test fake implements. */
export type MLCEngineLike = Pick<MLCEngineInterface, 'reload' | 'unload' | 'interruptGenerate' | 'getMessage'> & {
  chat: { completions: ChatCompletionsLike };
};

/** Makes an engine with no model loaded (the adapter calls `reload`). */
export type CreateEngine = (config: MLCEngineConfig) => Promise<MLCEngineLike>;
