/**
 * The one catalogue of error codes this runtime answers with (`error.code` in OpenAI's
 * error shape, and a failed response's `error.code`). Throw sites name a code from here,
 * so a code is spelled once and a client can rely on the list. OpenAI's own codes keep
 * OpenAI's spelling; the rest say what a person can do about them (see the messages).
 */
export const Codes = {
  // Request validation (OpenAI's names).
  invalidValue: 'invalid_value',
  invalidType: 'invalid_type',
  invalidJson: 'invalid_json',
  invalidContentType: 'invalid_content_type',
  stringAboveMaxLength: 'string_above_max_length',
  stringBelowMinLength: 'string_below_min_length',
  arrayAboveMaxLength: 'array_above_max_length',
  arrayBelowMinLength: 'array_below_min_length',
  integerAboveMaxValue: 'integer_above_max_value',
  integerBelowMinValue: 'integer_below_min_value',
  decimalAboveMaxValue: 'decimal_above_max_value',
  decimalBelowMinValue: 'decimal_below_min_value',
  objectAboveMaxProperties: 'object_above_max_properties',
  /** Objects/arrays nested deeper than the request limit (see `protocol/request-limits.ts`). */
  nestingAboveMaxDepth: 'nesting_above_max_depth',
  /** A body larger than the request limit: HTTP 413. */
  requestTooLarge: 'request_too_large',
  /** An upload larger than the file limit (`protocol/files.ts`): HTTP 413. */
  fileTooLarge: 'file_too_large',
  missingRequiredParameter: 'missing_required_parameter',
  unknownParameter: 'unknown_parameter',
  unsupportedParameter: 'unsupported_parameter',
  invalidJsonSchema: 'invalid_json_schema',
  contextLengthExceeded: 'context_length_exceeded',
  mutuallyExclusiveParameters: 'mutually_exclusive_parameters',
  unsupportedTool: 'unsupported_tool',
  /** `top_logprobs` / `include: ["message.output_text.logprobs"]` for a model whose engine cannot report token probabilities. */
  logprobsUnsupported: 'logprobs_unsupported',
  /** A reasoning item's `encrypted_content` was not sealed by this origin's key for this item (OpenAI's name). */
  invalidEncryptedContent: 'invalid_encrypted_content',
  /** An `input_image`'s https: URL that the runtime would not or could not fetch (policy, HTTP error, size, not an image; OpenAI's name). */
  invalidImageUrl: 'invalid_image_url',
  // Routing and lookups.
  unknownUrl: 'unknown_url',
  methodNotAllowed: 'method_not_allowed',
  modelNotFound: 'model_not_found',
  itemNotFound: 'item_not_found',
  fileNotFound: 'file_not_found',
  vectorStoreNotFound: 'vector_store_not_found',
  fileBatchNotFound: 'file_batch_not_found',
  previousResponseNotFound: 'previous_response_not_found',
  previousResponseInProgress: 'previous_response_in_progress',
  noEventLog: 'no_event_log',
  // The HTTP edge: /v1 answers this origin's own scripts only.
  crossOriginRefused: 'cross_origin_refused',
  /** A conversation already has a turn running: its items would be appended out of order. */
  conversationLocked: 'conversation_locked',
  // WebSocket mode (OpenAI's names).
  /** A connection lived its 60 minutes: open a new one. */
  websocketConnectionLimitReached: 'websocket_connection_limit_reached',
  /** Too many lanes or turns at once on one connection. */
  websocketStreamLimitReached: 'websocket_stream_limit_reached',
  // The runtime and its engines.
  serverError: 'server_error',
  runtimeError: 'runtime_error',
  runtimeUnavailable: 'runtime_unavailable',
  streamError: 'stream_error',
  /**
   * A request came through the service worker (whose fetches Chromium cuts after ~5 minutes)
   * and waited behind other work until it could no longer start in time: a 503 with
   * `Retry-After`, or a stream's `error` event; the request was not run and never will be.
   */
  queueTimeout: 'queue_timeout',
  /**
   * A response through the service worker would outlive its fetch (~5 minutes): a running
   * foreground one was stopped (`incomplete`); a background one's stream ended and can be
   * resumed (the message says how).
   */
  connectionTimeLimit: 'connection_time_limit',
  engineError: 'engine_error',
  webgpuUnavailable: 'webgpu_unavailable',
  wasmUnsupported: 'wasm_unsupported',
  gpuOutOfMemory: 'gpu_out_of_memory',
  outOfMemory: 'out_of_memory',
  deviceLost: 'device_lost',
  quotaExceeded: 'quota_exceeded',
  /** IndexedDB refused a write: the origin's storage is full. */
  storageFull: 'storage_full',
  modelDownloadFailed: 'model_download_failed',
  modelLoadFailed: 'model_load_failed',
  // Remote providers (an upstream OpenAI-compatible server; the message names the provider).
  /** The upstream answered 429: OpenAI's code, and a failed response's `error.code`. */
  rateLimitExceeded: 'rate_limit_exceeded',
  /** The provider's server could not be reached, or refused this origin (CORS): the browser cannot tell which. */
  providerUnreachable: 'provider_unreachable',
  /** The provider refused the key (401/403). */
  providerAuthFailed: 'provider_auth_failed',
  /** The provider answered with an error of its own (its message is passed on). */
  providerError: 'provider_error',
  /** The provider's stream broke off, sent nothing for too long, or sent more than allowed. */
  providerStreamFailed: 'provider_stream_failed',
  /** A provider setting that cannot be used (address, id). */
  invalidProvider: 'invalid_provider',
  // Routes (a model of this device, then a provider's, under one name).
  /** A route setting that cannot be used (unknown provider or local model, an id taken by a model). */
  invalidRoute: 'invalid_route',
  /** Neither side of a route can take the request: the message names both and why. */
  routeUnavailable: 'route_unavailable',
} as const;

export type ErrorCode = (typeof Codes)[keyof typeof Codes];
