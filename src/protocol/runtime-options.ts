/**
 * The runtime's public start options, in one place: what `startLocalRuntime` hands the
 * runtime worker (`RuntimeStartOptions`, over the control API) and what the stored runtime
 * options and the package's entries (`local-responses/cpu`, `local-responses/python`) are
 * made of — the CPU engine, the builtin tools, retention. Plain data: it crosses from the
 * page into the worker. The modules that act on an option import its type from here.
 */

/** What the CPU engine needs from the app: where its wasm is (`local-responses/cpu`). */
export interface CpuEngineAssets {
  /** URL of `wllama.wasm`; relative URLs resolve against the page. */
  wasmUrl: string;
}

/**
 * The runtime's options: one object from `startLocalRuntime` (over the origin's stored
 * options, which it overrides field by field) through the runtime host and worker to the
 * composition root, passed whole. A new option is one field here, read where it acts.
 */
export interface RuntimeOptions {
  /**
   * Register the `test-scripted` model (a scripted model for your tests; see docs/models.md) in
   * the runtime this tab may start. Only ever from code: no URL switches it on.
   */
  testModels?: boolean;
  /**
   * Also serve GGUF models on the CPU (wllama in WebAssembly) for devices without WebGPU:
   * `cpuEngine` of `local-responses/cpu` (importing it is what makes a bundler copy the
   * 10 MB wasm). Its code loads in the runtime worker only then. Default: none.
   */
  cpuEngine?: CpuEngineAssets;
  /**
   * Base URL of a mirror of web-llm's weights and model libraries (layout: see
   * `AppConfigOptions.modelBase` in engine/webllm/catalog.ts); relative URLs resolve against
   * the runtime's origin. Default: the stored setting, else web-llm's sources (Hugging Face
   * and web-llm's GitHub); see `client/model-base.ts`. Never from the page URL.
   */
  modelBase?: string;
  /**
   * Builtin tools (code interpreter, web search, MCP). Default: the stored runtime options',
   * else none. Never from the page URL.
   */
  tools?: ToolsConfig;
  /**
   * How long the runtime keeps stored responses: `maxAgeDays`, `maxBytes` (null: no limit of
   * that kind; one left out keeps its default, 90 days and 200 MB). It applies to a runtime
   * this tab starts; to change the running one's, any tab sends
   * `POST /v1/local/storage/prune` with `{"retention": {"max_age_days", "max_bytes"}}`.
   */
  retention?: Partial<RetentionPolicy>;
  /**
   * The CPU engine (wllama): `threads`, default all cores (`navigator.hardwareConcurrency`).
   * Threads need cross-origin isolation (COOP + COEP, which the app's servers and service
   * worker send); without it the engine runs one thread whatever is asked.
   */
  cpu?: CpuEngineOptions;
  /**
   * Remote providers whose models the runtime serves too, e.g.
   * `[{ id: 'lab', baseUrl: 'http://127.0.0.1:8080/v1' }]`: `/v1/models` lists them as
   * `lab/<model>`. Held in the runtime's memory (keys included; nothing is stored); the app's
   * Settings → Providers and `POST /v1/local/providers` add stored ones.
   */
  providers?: ProviderOptions[];
  /**
   * Routes: one model name that runs on this device's model when it can take the request and
   * on a provider's otherwise (or the other way round with `prefer: 'remote'`), e.g.
   * `[{ id: 'auto', local: 'qwen3-1.7b', remote: 'lab/qwen3-32b' }]`. Held in the runtime's
   * memory; Settings → Routes and `POST /v1/local/routes` add stored ones.
   */
  routes?: RouteOptions[];
  /**
   * File search: `embeddingModel`, the embedding model new vector stores use for hybrid
   * search (an id `/v1/models` lists with `type: "embedding"`, or a provider's model,
   * `'<provider>/<upstream id>'`). Default none: keyword search, no model needed.
   */
  fileSearch?: FileSearchOptions;
}

/**
 * The options as the runtime worker is started with them: decided (test models on or off),
 * and the tools with what the page made for them (the Python sandbox's port, transferred;
 * see src/tools/page-tools.ts).
 */
export interface RuntimeStartOptions extends Omit<RuntimeOptions, 'testModels' | 'tools'> {
  testModels: boolean;
  tools?: RuntimeToolsOptions;
}

/**
 * A remote provider given in code (`startLocalRuntime({ providers })`): an upstream
 * OpenAI-compatible server (llama.cpp, vLLM, SGLang, Ollama, LM Studio, OpenAI) whose models
 * `/v1/models` lists as `<id>/<upstream model id>`. Held in the runtime's memory for its life
 * (its key too: nothing of it is written to storage); `/v1/local/providers` shows it with
 * `source: "startup"`. The same fields as `POST /v1/local/providers`, camel-cased.
 */
export interface ProviderOptions {
  /** 1–32 of `[a-z0-9-]`. */
  id: string;
  /** e.g. `http://127.0.0.1:8080/v1`: `https:` anywhere, `http:` only for loopback and private-network hosts. */
  baseUrl: string;
  /** Default `chat_completions`; `responses` calls the upstream's `/responses` with `store: false`. */
  api?: 'chat_completions' | 'responses';
  /** Sent as `Authorization: Bearer …` to the provider's own origin only. */
  apiKey?: string;
  /** Upstream model ids to serve; default: what its `GET /models` lists. */
  models?: string[];
  /** Tokens its models attend to, when its `GET /models` does not say. */
  contextWindow?: number;
  /** Responses it runs at once; default 4. */
  concurrency?: number;
}

/**
 * A route given in code (`startLocalRuntime({ routes })`): one model name that runs on this
 * device's `local` model when it can take the request and on the provider's `remote` model
 * otherwise (`prefer: "remote"`: on the provider, and on the device when the provider cannot
 * be reached). Held in the runtime's memory; `/v1/local/routes` shows it with
 * `source: "startup"`. The same fields as `POST /v1/local/routes`.
 */
export interface RouteOptions {
  /** 1–64 of `[A-Za-z0-9._:-]`: the name used as `model`. */
  id: string;
  /** A model of this device (`/v1/models` lists it without a provider prefix). */
  local: string;
  /** A provider's model, `<provider id>/<upstream model id>` (a provider given in `providers`, or a stored one). */
  remote: string;
  /** Default `local`. */
  prefer?: 'local' | 'remote';
}

/** File search's runtime option (`startLocalRuntime({ fileSearch })`, or the stored runtime options). */
export interface FileSearchOptions {
  /**
   * The embedding model (an id `/v1/models` lists with `type: "embedding"`, or a provider's
   * model `<provider>/<upstream id>`, which its server's `POST /embeddings` embeds with) that
   * vector stores created from now on embed their chunks with, for hybrid (keyword + embedding) search. A
   * store keeps the model it was made with. Absent: keyword search only, no model needed.
   */
  embeddingModel?: string;
}

/** The CPU engine's runtime option (`startLocalRuntime({ cpu })`, or the stored runtime options). */
export interface CpuEngineOptions {
  /** llama.cpp's threads; default all cores (`navigator.hardwareConcurrency`). Only with cross-origin isolation. */
  threads?: number;
}

/** How long the runtime keeps stored responses (server/retention.ts applies it). */
export interface RetentionPolicy {
  /** Conversations whose last response is older than this many days go; null: no age limit. */
  maxAgeDays: number | null;
  /** Oldest conversations go until the total is at most this many bytes; null: no size limit. */
  maxBytes: number | null;
}

// 200 MB as the app counts (1000-based, like its model sizes), so the app's default setting
// is this exact policy and its storage view shows the budget as a round number.
export const DEFAULT_RETENTION: RetentionPolicy = { maxAgeDays: 90, maxBytes: 200_000_000 };

/** The pyodide files the code interpreter loads (the app serves them under `/pyodide/`). */
export const PYODIDE_FILES = ['pyodide.mjs', 'pyodide.asm.mjs', 'pyodide.asm.wasm', 'python_stdlib.zip', 'pyodide-lock.json'] as const;

export type PyodideFileName = (typeof PYODIDE_FILES)[number];

/**
 * Where the files are: a folder holding all of them under their own names (the app's
 * `/pyodide/`, a CDN), or one absolute URL per file (a bundler gives each its own hashed
 * name; see the package's `local-responses/python` entry).
 */
export type PyodideAssets = string | Readonly<Record<PyodideFileName, string>>;


export type SearchProviderConfig = { type: 'wikipedia'; lang?: string } | { type: 'searxng'; baseUrl: string };

export interface PythonToolConfig {
  /**
   * pyodide's files: a folder URL holding them under their own names (the app serves
   * `/pyodide/`), or one URL per file — `pyodideAssets` of the package's
   * `local-responses/python` entry, which a bundler copies. Without it there is no code
   * interpreter: Python is opt-in, so an app that does not ask for it ships no pyodide.
   */
  assets?: PyodideAssets;
  /** Per call, ms. Default 30 000. */
  timeLimitMs?: number;
  /** A conversation's Python state is dropped after this long unused, ms. Default 20 minutes. */
  idleMs?: number;
  /** Live interpreters at most (each is tens of MB). Default 4. */
  maxContainers?: number;
  /** Keep one interpreter started ahead once Python has been used. Default true. */
  warmSpare?: boolean;
  /**
   * Package index for imports beyond the standard library, e.g.
   * `https://cdn.jsdelivr.net/pyodide/v314.0.7/full/`: packages load on import when
   * online, and the sandbox may then connect to that origin (only). Default: none.
   */
  packageBaseUrl?: string;
}

export interface WebSearchToolConfig {
  /** Default Wikipedia (English). */
  provider?: SearchProviderConfig;
  /** Allow localhost and private-network addresses (a self-hosted SearXNG, tests). */
  allowPrivateNetwork?: boolean;
  /** Private servers allowed one by one: `host:port`, or `host` for its default port (80/443); no other port of the host. */
  allowHosts?: string[];
  /** Budget of an opened page, in tokens (~4 characters each). Default 3000. */
  pageTokens?: number;
  /** Results per search. Default 5. */
  maxResults?: number;
}

export interface McpToolConfig {
  /**
   * MCP servers on this machine or a private network that the user allowed (`host:port`,
   * e.g. `localhost:3000`, or `host` for its default port 80/443; no other port of the host);
   * public servers need no entry.
   */
  allowHosts?: string[];
  /** Allow every localhost / private-network MCP server (tests). Default false. */
  allowPrivateNetwork?: boolean;
  /** A tool's output is cut to this many characters. Default 20 000. */
  maxOutputChars?: number;
  /** Per list or call, ms. Default 60 000. */
  timeoutMs?: number;
}

export interface ToolsConfig {
  /** `false`: no code interpreter in this runtime. */
  python?: PythonToolConfig | false;
  /** `false`: no web search in this runtime. */
  webSearch?: WebSearchToolConfig | false;
  /** `false`: requests with `mcp` tools are refused. */
  mcp?: McpToolConfig | false;
  /** Programmatic tool calling (model-written JavaScript in a QuickJS sandbox); `false`: the tool is refused. */
  programs?: ProgramsToolConfig | false;
}

export interface ProgramsToolConfig {
  /** CPU time one program may use, ms. Default 30 000. */
  timeLimitMs?: number;
}

/** What the runtime worker receives: the config and the port to the Python sandbox frame. */
/** Every builtin tool off: what a runtime starts with unless code or the stored options name a tool. */
export const NO_TOOLS: ToolsConfig = { python: false, webSearch: false, mcp: false, programs: false };

export interface RuntimeToolsOptions extends ToolsConfig {
  pythonPort?: MessagePort;
}
