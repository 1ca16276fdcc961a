/**
 * Conversations and the answer being generated. Every answer is a background response
 * streamed as it is generated (`background: true, stream: true`):
 * - Stop is `POST /v1/responses/{id}/cancel`, so a stopped answer is stored `cancelled`
 *   (what the person did), with the text so far — not `incomplete`, which is what a
 *   dropped connection means;
 * - the answer does not depend on the connection: if the service worker restarts or the
 *   page reloads while another tab runs the runtime, the stream is resumed from the last
 *   event seen (`GET /v1/responses/{id}?stream=true&starting_after=N`).
 * Turns are chained with `previous_response_id`; the app keeps a display copy of each
 * turn in its own database so the sidebar and the conversation open offline.
 */
import type { ResponseStreamEvent } from 'openai/resources/responses/responses';
import { APIError } from 'openai';
import type { Api } from './api';
import { deleteConversationRecord, loadConversations, saveConversation, type AppDatabase } from './app-db';
import { approvalDecisions, isRunning, newApprovalTurn, newTurn, previousResponseId, titleFrom, type Conversation, type Turn } from './saved-chat';
import { ExternalStore } from './external-store';
import type { McpTokens } from './mcp-tokens';
import { requestOptions, type Settings } from './settings';
import { applyResponse, applyStreamEvent } from './stream-reducer';

export interface ChatState {
  /** False until the database was read. */
  loaded: boolean;
  /** Newest first. */
  conversations: Conversation[];
  /** null: a new, empty chat. */
  activeId: string | null;
  /** The turn being generated, if any (one at a time). */
  running: { conversationId: string; turnId: string; stopping: boolean } | null;
}

/** How often a streaming turn is written to the database (it is always written at the end). */
const SAVE_EVERY_MS = 1_000;
/** How often React hears about stream events (tokens arrive faster than frames). */
const NOTIFY_EVERY_MS = 33;
/** Resume attempts after the stream dropped while the response was still running. */
const MAX_RESUMES = 5;

interface ActiveRun {
  conversationId: string;
  turnId: string;
  abort: AbortController;
  responseId: Promise<string | null>;
  resolveResponseId: (id: string | null) => void;
}

function errorMessage(error: unknown): string {
  if (error instanceof APIError) {
    const body = error.error as { message?: string } | undefined;
    return body?.message ?? error.message;
  }
  if (error instanceof Error) return error.message;
  return String(error);
}

export class ChatStore extends ExternalStore<ChatState> {
  #api: Api | null = null;
  #run: ActiveRun | null = null;
  #pending: ChatState | null = null;
  #notifyTimer: ReturnType<typeof setTimeout> | null = null;
  #lastSave = new Map<string, number>();

  /** Other tabs of the app hear about saved and deleted conversations. */
  readonly #tabs: BroadcastChannel | null = typeof BroadcastChannel === 'function' ? new BroadcastChannel('local-responses-app/conversations') : null;

  constructor(
    private readonly db: Promise<AppDatabase>,
    private readonly settings: () => Settings,
    private readonly mcpTokens: () => McpTokens = () => ({}),
  ) {
    super({ loaded: false, conversations: [], activeId: null, running: null });
    this.#tabs?.addEventListener('message', (event: MessageEvent<{ type: 'saved' | 'deleted'; id: string }>) => void this.#fromOtherTab(event.data));
    void this.#load();
  }

  async #fromOtherTab({ type, id }: { type: 'saved' | 'deleted'; id: string }): Promise<void> {
    // A conversation this tab is answering in is this tab's to write.
    if (this.#run?.conversationId === id) return;
    if (type === 'deleted') {
      this.#update((state) => ({ ...state, activeId: state.activeId === id ? null : state.activeId, conversations: state.conversations.filter((c) => c.id !== id) }), true);
      return;
    }
    const conversation = await (await this.db).get('conversations', id);
    if (conversation) this.#putConversation(conversation, true);
  }

  async #load(): Promise<void> {
    try {
      const conversations = await loadConversations(await this.db);
      this.set({ ...this.get(), loaded: true, conversations });
      this.#resumeAll();
    } catch (error) {
      // No IndexedDB (blocked by the browser's privacy settings): chats still work, unsaved.
      console.error('Could not read the saved conversations', error);
      this.set({ ...this.get(), loaded: true });
    }
  }

  /** Called once the runtime answers; answers that were running when the page closed are picked up. */
  connect(api: Api): void {
    this.#api = api;
    this.#resumeAll();
  }

  get active(): Conversation | null {
    const { conversations, activeId } = this.#current();
    return conversations.find((c) => c.id === activeId) ?? null;
  }

  select(id: string | null): void {
    this.#flush();
    this.set({ ...this.get(), activeId: id });
  }

  // ── state updates ────────────────────────────────────────────────────────────

  /** Coalesces stream-driven updates to one notification per NOTIFY_EVERY_MS. */
  #update(change: (state: ChatState) => ChatState, urgent = false): void {
    this.#pending = change(this.#pending ?? this.get());
    if (urgent) return this.#flush();
    this.#notifyTimer ??= setTimeout(() => this.#flush(), NOTIFY_EVERY_MS);
  }

  #flush(): void {
    if (this.#notifyTimer !== null) clearTimeout(this.#notifyTimer);
    this.#notifyTimer = null;
    const pending = this.#pending;
    this.#pending = null;
    if (pending) this.set(pending);
  }

  #current(): ChatState {
    return this.#pending ?? this.get();
  }

  #conversation(id: string): Conversation | undefined {
    return this.#current().conversations.find((c) => c.id === id);
  }

  #putConversation(conversation: Conversation, urgent = false): void {
    this.#update((state) => {
      const others = state.conversations.filter((c) => c.id !== conversation.id);
      // Newest first: a conversation that changes moves to the top.
      return { ...state, conversations: [conversation, ...others].sort((a, b) => b.updatedAt - a.updatedAt) };
    }, urgent);
  }

  #updateTurn(conversationId: string, turnId: string, change: (turn: Turn) => Turn, { persist = false, urgent = false } = {}): void {
    const conversation = this.#conversation(conversationId);
    if (!conversation) return;
    const turns = conversation.turns.map((t) => (t.id === turnId ? change(t) : t));
    const next = { ...conversation, turns };
    this.#putConversation(next, urgent);
    const now = Date.now();
    if (persist || now - (this.#lastSave.get(conversationId) ?? 0) > SAVE_EVERY_MS) {
      this.#lastSave.set(conversationId, now);
      void this.#save(next);
    }
  }

  async #save(conversation: Conversation): Promise<void> {
    try {
      await saveConversation(await this.db, conversation);
      this.#tabs?.postMessage({ type: 'saved', id: conversation.id });
    } catch (error) {
      console.error('Could not save the conversation', error);
    }
  }

  // ── chat actions ─────────────────────────────────────────────────────────────

  get busy(): boolean {
    return this.#run !== null;
  }

  /** Sends `text` in the active conversation (a new one when none is open). */
  async send(text: string): Promise<void> {
    const model = this.settings().model;
    if (!model || this.#run || !text.trim()) return;
    const now = Date.now();
    let conversation = this.active;
    if (!conversation) {
      conversation = { id: crypto.randomUUID(), title: titleFrom(text), createdAt: now, updatedAt: now, turns: [] };
    }
    const turn = newTurn(text, model, now);
    const next = { ...conversation, updatedAt: now, turns: [...conversation.turns, turn] };
    this.#update((state) => ({ ...state, activeId: next.id }));
    this.#putConversation(next, true);
    await this.#save(next);
    await this.#generate(next.id, turn.id, previousResponseId(conversation.turns));
  }

  /**
   * Answers an MCP approval request of the last answer: the next turn sends
   * `mcp_approval_response` with `previous_response_id`; the server makes the call only
   * when `approve`. A request that is not the last answer's, or already answered, is ignored.
   */
  async respondToApproval(requestId: string, approve: boolean): Promise<void> {
    const conversation = this.active;
    const last = conversation?.turns.at(-1);
    const model = this.settings().model;
    if (!conversation || !last || !model || this.#run || isRunning(last)) return;
    if (approvalDecisions(conversation.turns).has(requestId)) return;
    const request = last.output.find((item) => item.type === 'mcp_approval_request' && item.id === requestId);
    if (request?.type !== 'mcp_approval_request') return;
    const now = Date.now();
    const turn = newApprovalTurn({ requestId, approve, server: request.server_label, tool: request.name }, model, now);
    const next = { ...conversation, updatedAt: now, turns: [...conversation.turns, turn] };
    this.#putConversation(next, true);
    await this.#save(next);
    await this.#generate(next.id, turn.id, previousResponseId(conversation.turns));
  }

  /** Answers the last message (or approval) again (the old answer and its stored response are removed). */
  async regenerate(): Promise<void> {
    const conversation = this.active;
    const last = conversation?.turns.at(-1);
    if (!conversation || !last) return;
    if (!last.approval) return this.editLast(last.input);
    const model = this.settings().model;
    if (!model || this.#run) return;
    if (last.responseId) void this.#deleteResponse(last.responseId);
    const earlier = conversation.turns.slice(0, -1);
    const turn = { ...newApprovalTurn(last.approval, model, Date.now()), id: last.id };
    const next = { ...conversation, updatedAt: turn.startedAt, turns: [...earlier, turn] };
    this.#putConversation(next, true);
    await this.#save(next);
    await this.#generate(next.id, turn.id, previousResponseId(earlier));
  }

  /** Replaces the last message with `text` and answers it. */
  async editLast(text: string): Promise<void> {
    const conversation = this.active;
    const last = conversation?.turns.at(-1);
    const model = this.settings().model;
    if (!conversation || !last || !model || this.#run || !text.trim()) return;
    const earlier = conversation.turns.slice(0, -1);
    if (last.responseId) void this.#deleteResponse(last.responseId);
    const now = Date.now();
    const turn = { ...newTurn(text, model, now), id: last.id };
    const next = {
      ...conversation,
      title: earlier.length === 0 && conversation.title === titleFrom(last.input) ? titleFrom(text) : conversation.title,
      updatedAt: now,
      turns: [...earlier, turn],
    };
    this.#putConversation(next, true);
    await this.#save(next);
    await this.#generate(next.id, turn.id, previousResponseId(earlier));
  }

  /** Stops the answer being generated: cancels the response (it is kept, `cancelled`). */
  async stop(): Promise<void> {
    const run = this.#run;
    if (!run || !this.#api) return;
    this.#update((state) => (state.running ? { ...state, running: { ...state.running, stopping: true } } : state), true);
    const id = await run.responseId;
    if (id) {
      try {
        const response = await this.#api.client.responses.cancel(id);
        this.#updateTurn(run.conversationId, run.turnId, (t) => applyResponse(t, response, Date.now()), { urgent: true });
      } catch {
        // Already finished: the stream delivers (or delivered) its end.
      }
    }
    run.abort.abort();
  }

  async #generate(conversationId: string, turnId: string, previous: string | null): Promise<void> {
    const api = this.#api;
    if (!api) return;
    const settings = this.settings();
    const turn = this.#conversation(conversationId)?.turns.find((t) => t.id === turnId);
    if (!turn) return;
    const run = this.#startRun(conversationId, turnId);
    try {
      const stream = await api.client.responses.create(
        {
          model: turn.model,
          input: turn.approval
            ? [{ type: 'mcp_approval_response', approval_request_id: turn.approval.requestId, approve: turn.approval.approve }]
            : turn.input,
          ...(previous ? { previous_response_id: previous } : {}),
          ...requestOptions(settings, this.mcpTokens()),
          background: true,
          stream: true,
          store: true,
          context_management: [{ type: 'compaction' }], // a chat outgrowing the context window is summarized, not refused
        },
        { signal: run.abort.signal },
      );
      await this.#consume(run, stream);
    } catch (error) {
      if (!run.abort.signal.aborted) {
        this.#updateTurn(conversationId, turnId, (t) => ({ ...t, status: 'failed', error: errorMessage(error), finishedAt: Date.now() }), {
          persist: true,
          urgent: true,
        });
      }
    }
    await this.#finishRun(run);
  }

  /** Picks up answers left running (page reloaded, or another tab ran the runtime). */
  #resumeAll(): void {
    if (!this.#api || !this.get().loaded || this.#run) return;
    for (const conversation of this.get().conversations) {
      const turn = conversation.turns.at(-1);
      if (turn && isRunning(turn)) {
        void this.#resume(conversation.id, turn);
        return; // one at a time, like generation
      }
    }
  }

  async #resume(conversationId: string, turn: Turn): Promise<void> {
    const run = this.#startRun(conversationId, turn.id);
    if (!turn.responseId) {
      // The request never reached the server (or its answer never came back).
      this.#updateTurn(conversationId, turn.id, (t) => ({ ...t, status: 'failed', error: 'The page closed before the answer started.', finishedAt: Date.now() }), {
        persist: true,
      });
    } else {
      run.resolveResponseId(turn.responseId);
    }
    await this.#finishRun(run);
  }

  #startRun(conversationId: string, turnId: string): ActiveRun {
    let resolveResponseId!: (id: string | null) => void;
    const responseId = new Promise<string | null>((resolve) => (resolveResponseId = resolve));
    const run: ActiveRun = { conversationId, turnId, abort: new AbortController(), responseId, resolveResponseId };
    this.#run = run;
    this.#update((state) => ({ ...state, running: { conversationId, turnId, stopping: false } }), true);
    return run;
  }

  async #consume(run: ActiveRun, stream: AsyncIterable<ResponseStreamEvent>): Promise<void> {
    for await (const event of stream) {
      this.#updateTurn(run.conversationId, run.turnId, (t) => applyStreamEvent(t, event, Date.now()));
      if ('response' in event && event.response?.id) run.resolveResponseId(event.response.id);
    }
  }

  /**
   * The stream ended (finished, cancelled, or dropped): make sure the turn shows the
   * response's final state, resuming the stream while it is still running.
   */
  async #finishRun(run: ActiveRun): Promise<void> {
    const api = this.#api;
    const turnOf = () => this.#conversation(run.conversationId)?.turns.find((t) => t.id === run.turnId);
    run.resolveResponseId(turnOf()?.responseId ?? null);
    for (let attempt = 0; api && attempt <= MAX_RESUMES; attempt++) {
      const turn = turnOf();
      if (!turn?.responseId || !isRunning(turn)) break;
      try {
        const response = await api.client.responses.retrieve(turn.responseId);
        this.#updateTurn(run.conversationId, run.turnId, (t) => applyResponse(t, response, Date.now()));
        // Stopped: the cancel already landed (or the answer had finished); nothing to resume.
        if (!isRunning(turnOf()!) || run.abort.signal.aborted) break;
        const resumed = await api.client.responses.retrieve(
          turn.responseId,
          { stream: true, starting_after: turnOf()!.lastSequence },
          { signal: run.abort.signal },
        );
        await this.#consume(run, resumed);
      } catch (error) {
        if (error instanceof APIError && error.status === 404) {
          this.#updateTurn(run.conversationId, run.turnId, (t) => ({ ...t, status: 'failed', error: 'The stored response is gone.', finishedAt: Date.now() }));
          break;
        }
        if (!run.abort.signal.aborted) await new Promise((resolve) => setTimeout(resolve, 300 * (attempt + 1)));
      }
    }
    const turn = turnOf();
    if (turn && isRunning(turn)) {
      this.#updateTurn(run.conversationId, run.turnId, (t) => ({ ...t, status: 'failed', error: t.error ?? 'Lost the connection to the local runtime.', finishedAt: Date.now() }));
    }
    const finished = this.#conversation(run.conversationId);
    if (finished) await this.#save(finished);
    if (this.#run === run) this.#run = null;
    this.#update((state) => ({ ...state, running: null }), true);
  }

  // ── conversation management ─────────────────────────────────────────────────

  async rename(id: string, title: string): Promise<void> {
    const conversation = this.#conversation(id);
    const trimmed = title.trim();
    if (!conversation || !trimmed) return;
    const next = { ...conversation, title: trimmed };
    this.#update((state) => ({ ...state, conversations: state.conversations.map((c) => (c.id === id ? next : c)) }), true);
    await this.#save(next);
  }

  /** Deletes the conversation here and its stored responses on the server. */
  async remove(id: string): Promise<void> {
    if (this.#run?.conversationId === id) await this.stop();
    const conversation = this.#conversation(id);
    if (!conversation) return;
    this.#update((state) => ({
      ...state,
      activeId: state.activeId === id ? null : state.activeId,
      conversations: state.conversations.filter((c) => c.id !== id),
    }), true);
    await deleteConversationRecord(await this.db, id);
    this.#tabs?.postMessage({ type: 'deleted', id });
    await Promise.all(conversation.turns.map((t) => (t.responseId ? this.#deleteResponse(t.responseId) : undefined)));
  }

  async #deleteResponse(id: string): Promise<void> {
    try {
      await this.#api?.client.responses.delete(id);
    } catch (error) {
      // Already gone is fine. Anything else leaves the response stored on the server with no
      // conversation pointing at it (nothing deletes it later): say so in the console.
      if (!(error instanceof APIError && error.status === 404)) console.warn(`Could not delete response ${id}`, error);
    }
  }

  /** The conversation as JSON: the app's copy plus each stored response as the server has it. */
  async exportJson(id: string): Promise<string> {
    const conversation = this.#conversation(id);
    if (!conversation) throw new Error('No such conversation.');
    const api = this.#api;
    const turns = await Promise.all(
      conversation.turns.map(async (turn) => {
        let response: unknown = null;
        if (turn.responseId && api) {
          response = await api.client.responses.retrieve(turn.responseId, { include: ['code_interpreter_call.outputs'] }).catch(() => null);
        }
        return { input: turn.input, model: turn.model, response_id: turn.responseId, status: turn.status, output: turn.output, usage: turn.usage, response };
      }),
    );
    return JSON.stringify(
      {
        object: 'local_responses.conversation',
        exported_at: new Date().toISOString(),
        id: conversation.id,
        title: conversation.title,
        created_at: new Date(conversation.createdAt).toISOString(),
        turns,
      },
      null,
      2,
    );
  }
}
