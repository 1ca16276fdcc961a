/**
 * The engine of one provider: its models are the upstream's, named `<provider id>/<upstream
 * id>`; each `generate` is one stateless upstream request (remote-generation.ts) whose
 * answer comes back already parsed (`parsesOutput`): the upstream applies its own model's
 * template and tool-call format, so our tags never reach it and its text is never read as
 * ours. No tokenizer here: prompt counts are estimates until the upstream's `usage` says.
 */
import type { Rendered } from '../../chat/chat-format';
import type { Embedder } from '../../ports/embedder';
import type { GenerateRequest, Generation, ModelInfo } from '../../ports/engine';
import type { ProviderConnection, RemoteEngine } from '../../ports/providers';
import { estimateTokens } from '../token-estimate';
import { RemoteEmbedder } from './remote-embedder';
import { RemoteGeneration } from './remote-generation';
import { streamFailure, type ProviderFacts } from './upstream-errors';
import { upstreamJson, type UpstreamOptions } from './upstream-http';
import { readModelList, type UpstreamModel } from './upstream-models';

export interface RemoteEngineOptions extends UpstreamOptions {
  /** This app's origin (failure messages say how to allow it). */
  appOrigin: string;
}

/** The context window assumed when neither the upstream nor the provider's settings say. */
export const UNKNOWN_CONTEXT_WINDOW = 128_000;

/** `chat_format` of remote models in `/v1/models`: the upstream templates them itself. */
export const UPSTREAM_FORMAT = 'upstream';

export class ProviderEngine implements RemoteEngine {
  readonly name = 'remote';
  readonly parsesOutput = true;
  readonly reportsLogprobs = true;
  readonly exactTokenCounts = false;
  // As the local engines: at most one text event per 16 ms, so a fast server does not flood the page.
  readonly deltaWindowMs = 16;
  private readonly known = new Map<string, ModelInfo>();
  /** One embedder per upstream model: each learns its vectors' length once. */
  private readonly embedders = new Map<string, RemoteEmbedder>();
  private readonly facts: ProviderFacts;

  constructor(
    private readonly connection: ProviderConnection,
    private readonly options: RemoteEngineOptions,
  ) {
    this.facts = {
      id: connection.id,
      baseUrl: connection.baseUrl,
      ...(connection.apiKey ? { apiKey: connection.apiKey } : {}),
      keyStorage: connection.keyStorage,
      appOrigin: options.appOrigin,
    };
  }

  models(): ModelInfo[] {
    return [...this.known.values()];
  }

  modelInfo(upstreamId: string, listed?: UpstreamModel): ModelInfo {
    const { id } = this.connection;
    return {
      id: `${id}/${upstreamId}`,
      created: listed?.created ?? 0,
      owned_by: id,
      context_window: this.connection.contextWindow ?? listed?.contextWindow ?? UNKNOWN_CONTEXT_WINDOW,
      chat_format: UPSTREAM_FORMAT,
      label: upstreamId,
      // Images are passed on: whether this model sees them is the upstream's to say (its
      // error comes back naming the provider); refusing them here would refuse every vision model.
      input_modalities: ['text', 'image'],
    };
  }

  async listModels(signal: AbortSignal): Promise<ModelInfo[]> {
    const body = await upstreamJson(this.facts, { method: 'GET', path: '/models', signal }, this.options);
    const listed = readModelList(body);
    if (listed === null) throw streamFailure(this.facts, `its answer to GET ${this.connection.baseUrl}/models is not a model list. Check its address (it usually ends in /v1).`);
    const infos = listed.map((model) => this.modelInfo(model.id, model));
    this.known.clear();
    for (const info of infos) this.known.set(info.id, info);
    return infos;
  }

  embedder(upstreamId: string): Embedder {
    let embedder = this.embedders.get(upstreamId);
    if (!embedder) {
      const { contextWindow } = this.connection;
      embedder = new RemoteEmbedder({ provider: this.facts, upstreamModel: upstreamId, options: this.options, ...(contextWindow ? { contextWindow } : {}) });
      this.embedders.set(upstreamId, embedder);
    }
    return embedder;
  }

  async countTokens(_model: string, input: Rendered): Promise<number> {
    return estimateTokens(input.prompt);
  }

  generate(request: GenerateRequest): Generation {
    const prefix = `${this.connection.id}/`;
    const upstreamModel = request.model.startsWith(prefix) ? request.model.slice(prefix.length) : request.model;
    return new RemoteGeneration({ provider: this.facts, api: this.connection.api, upstreamModel, options: this.options }, request);
  }
}
