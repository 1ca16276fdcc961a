/**
 * Conversations and the answer being generated. Every answer is a background response
 * streamed as it is generated (`background: true, stream: true`):
 * - Stop is `POST /v1/responses/{id}/cancel`, so a stopped answer is stored `cancelled`
 *   (what the person did), with the text so far — not `incomplete`, which is what a
 *   dropped connection means;
 * - the answer does not depend on the connection: if the service worker restarts or the
 *   page reloads while another tab runs the runtime, the stream is resumed from the last
 *   event seen (`GET /v1/responses/{id}?stream=true&starting_after=N`).
 * A chat is one server conversation (`conv_…`): each turn is `responses.create({conversation})`,
 * which reads the conversation as context and appends the turn when it stands; the sidebar
 * is the server's list of conversations and a chat opened is read from its items
 * (chat-library.ts). So code on the origin can continue a chat of the app by its id, and
 * the app shows it. The request body is built in turn-request.ts.
 */
import type { ResponseStreamEvent } from 'openai/resources/responses/responses';
import { APIError } from 'openai';
import type { Api } from './api';
import type { AppDatabase } from './app-db';
import { createChat, deleteChat, deleteItems, deleteResponseQuietly, listChats, readTurns, renameChat, runningTurn } from './chat-library';
import { approvalDecisions, isRunning, mergeListed, newApprovalTurn, newTurn, titleFrom, type Conversation, type Turn } from './saved-chat';
import { exportChat } from './chat-export';
import { CoalescingStore } from './external-store';
import { migrateLegacyChats } from './legacy-chats';
import type { McpTokens } from './mcp-tokens';
import type { Settings } from './settings';
import { applyResponse, applyStreamEvent } from './stream-reducer';
import { turnRequest } from './turn-request';
import { resumeUntilSettled } from './resume-stream';
import { VECTOR_STORE_KEY } from './chat-files';

export interface ChatState {
  /** False until the runtime listed the conversations. */
  loaded: boolean;
  /** Newest first. */
  conversations: Conversation[];
  /** null: a new, empty chat. */
  activeId: string | null;
  /** The turn being generated, if any (one at a time). */
  running: { conversationId: string; turnId: string; stopping: boolean } | null;
}

/** How often React hears about stream events (tokens arrive faster than frames). */
const NOTIFY_EVERY_MS = 33;

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

export class ChatStore extends CoalescingStore<ChatState> {
  #api: Api | null = null;
  #run: ActiveRun | null = null;

  /** Other tabs of the app hear about changed and deleted conversations. */
  readonly #tabs: BroadcastChannel | null = typeof BroadcastChannel === 'function' ? new BroadcastChannel('local-responses-app/conversations') : null;

  /** @param db the app's database, read only for chats saved by older versions (legacy-chats.ts). */
  constructor(
    private readonly db: Promise<AppDatabase>,
    private readonly settings: () => Settings,
    private readonly mcpTokens: () => McpTokens = () => ({}),
  ) {
    super({ loaded: false, conversations: [], activeId: null, running: null }, NOTIFY_EVERY_MS);
    this.#tabs?.addEventListener('message', (event: MessageEvent<{ type: 'saved' | 'deleted'; id: string }>) => void this.#fromOtherTab(event.data));
  }

  async #fromOtherTab({ type, id }: { type: 'saved' | 'deleted'; id: string }): Promise<void> {
    // A conversation this tab is answering in is this tab's to write.
    if (this.#run?.conversationId === id) return;
    if (type === 'deleted') {
      this.update((state) => ({ ...state, activeId: state.activeId === id ? null : state.activeId, conversations: state.conversations.filter((c) => c.id !== id) }), true);
      return;
    }
    await this.reload();
    if (this.#conversation(id)?.opened) await this.#open(id, true);
  }

  async #load(api: Api): Promise<void> {
    // Chats of older versions first, so the list below has them.
    await this.db.then((db) => migrateLegacyChats(api, db)).catch((error: unknown) => console.error('Could not read the chats saved by an older version', error));
    await this.reload();
    this.update((state) => ({ ...state, loaded: true }), true);
    this.#resumeAll();
  }

  /** Reads the list again (e.g. after retention deleted chats); chats already opened keep their turns. */
  async reload(): Promise<void> {
    if (!this.#api) return;
    try {
      const listed = await listChats(this.#api);
      this.update((state) => ({ ...state, conversations: mergeListed(state.conversations, listed, state.activeId) }), true);
    } catch (error) {
      console.error('Could not list the conversations', error);
    }
  }

  /** Stops hearing other tabs (tests; a page never needs it). */
  dispose(): void {
    this.#tabs?.close();
  }

  /** Called once the runtime answers: lists the chats; answers that were running when the page closed are picked up. */
  connect(api: Api): void {
    this.#api = api;
    void this.#load(api);
  }

  get active(): Conversation | null {
    const { conversations, activeId } = this.current();
    return conversations.find((c) => c.id === activeId) ?? null;
  }

  select(id: string | null): void {
    this.flush();
    this.set({ ...this.get(), activeId: id });
    if (id !== null && !this.#conversation(id)?.opened) void this.#open(id);
  }

  /** Reads the chat's turns from its conversation; a response still running in it is resumed. */
  async #open(id: string, again = false): Promise<void> {
    const api = this.#api;
    const chat = this.#conversation(id);
    if (!api || !chat || (chat.opened && !again) || this.#run?.conversationId === id) return;
    try {
      const turns = await readTurns(api, chat);
      const running = chat.runningResponseId ? await runningTurn(api, chat.runningResponseId) : null;
      const live = running ? [running] : [];
      const current = this.#conversation(id);
      if (!current || this.#run?.conversationId === id) return;
      this.#putConversation({ ...current, turns: [...turns, ...live], opened: true }, true);
      if (live[0] && !this.#run) void this.#resume(id, live[0]);
    } catch (error) {
      console.error(`Could not read the conversation ${id}`, error);
    }
  }

  // ── state updates (coalesced: see CoalescingStore) ──────────────────────────

  #conversation(id: string): Conversation | undefined {
    return this.current().conversations.find((c) => c.id === id);
  }

  #putConversation(conversation: Conversation, urgent = false): void {
    this.update((state) => {
      const others = state.conversations.filter((c) => c.id !== conversation.id);
      // Newest first: a conversation that changes moves to the top.
      return { ...state, conversations: [conversation, ...others].sort((a, b) => b.updatedAt - a.updatedAt) };
    }, urgent);
  }

  #updateTurn(conversationId: string, turnId: string, change: (turn: Turn) => Turn, { urgent = false } = {}): void {
    const conversation = this.#conversation(conversationId);
    if (!conversation) return;
    const turns = conversation.turns.map((t) => (t.id === turnId ? change(t) : t));
    this.#putConversation({ ...conversation, turns }, urgent);
  }

  /** Other tabs read the conversation again. */
  #announce(id: string): void {
    this.#tabs?.postMessage({ type: 'saved', id });
  }

  // ── chat actions ─────────────────────────────────────────────────────────────

  get busy(): boolean {
    return this.#run !== null;
  }

  /**
   * The active chat; when none is open, a new one titled `title` (files attached to a new
   * chat need its conversation before the first message). Null when it could not be made.
   */
  async ensureActive(title: string): Promise<Conversation | null> {
    const active = this.active;
    if (active || !this.#api) return active;
    try {
      const created = await createChat(this.#api, title, Date.now());
      this.update((state) => ({ ...state, activeId: created.id }));
      this.#putConversation(created, true);
      this.#announce(created.id);
      return created;
    } catch (error) {
      console.error('Could not start a chat', error);
      return null;
    }
  }

  /** Sets keys of the chat's conversation metadata (its other keys kept). */
  async setMetadata(id: string, patch: Record<string, string>): Promise<void> {
    const conversation = this.#conversation(id);
    if (!conversation || !this.#api) return;
    const metadata = { ...conversation.metadata, ...patch };
    await this.#api.client.conversations.update(id, { metadata });
    this.update((state) => ({ ...state, conversations: state.conversations.map((c) => (c.id === id ? { ...c, metadata } : c)) }), true);
    this.#announce(id);
  }

  /** Sends `text` in the active conversation (a new one when none is open). */
  async send(text: string): Promise<void> {
    const model = this.settings().model;
    if (!model || this.#run || !text.trim() || !this.#api) return;
    const now = Date.now();
    const turn = newTurn(text, model, now);
    let conversation = this.active;
    if (!conversation) {
      try {
        conversation = await createChat(this.#api, text, now);
      } catch (error) {
        // No conversation (storage full, say): the turn shows why, in a chat that is not kept.
        const failed = { ...turn, status: 'failed' as const, error: errorMessage(error), finishedAt: Date.now() };
        const unsaved = { id: crypto.randomUUID(), title: titleFrom(text), createdAt: now, updatedAt: now, turns: [failed], opened: true };
        this.update((state) => ({ ...state, activeId: unsaved.id }));
        return this.#putConversation(unsaved, true);
      }
    }
    const next = { ...conversation, updatedAt: now, turns: [...conversation.turns, turn] };
    this.update((state) => ({ ...state, activeId: next.id }));
    this.#putConversation(next, true);
    await this.#generate(next.id, turn.id);
  }

  /**
   * Answers an MCP approval request of the last answer: the next turn sends
   * `mcp_approval_response` in the conversation (which holds the request); the server makes
   * the call only when `approve`. A request that is not the last answer's, or already
   * answered, is ignored.
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
    await this.#generate(next.id, turn.id);
  }

  /** Answers the last message (or approval) again (the old answer leaves the conversation; its stored response is deleted). */
  async regenerate(): Promise<void> {
    const conversation = this.active;
    const last = conversation?.turns.at(-1);
    if (!conversation || !last) return;
    if (!last.approval) return this.editLast(last.input);
    const model = this.settings().model;
    if (!model || this.#run) return;
    await this.#dropLastTurn(conversation);
    const turn = { ...newApprovalTurn(last.approval, model, Date.now()), id: last.id };
    const next = { ...conversation, updatedAt: turn.startedAt, turns: [...conversation.turns.slice(0, -1), turn] };
    this.#putConversation(next, true);
    await this.#generate(next.id, turn.id);
  }

  /** Replaces the last message with `text` and answers it. */
  async editLast(text: string): Promise<void> {
    const conversation = this.active;
    const last = conversation?.turns.at(-1);
    const model = this.settings().model;
    if (!conversation || !last || !model || this.#run || !text.trim() || !this.#api) return;
    const earlier = conversation.turns.slice(0, -1);
    await this.#dropLastTurn(conversation);
    const now = Date.now();
    const turn = { ...newTurn(text, model, now), id: last.id };
    const retitle = earlier.length === 0 && conversation.title === titleFrom(last.input) && titleFrom(text) !== conversation.title;
    let next: Conversation = { ...conversation, updatedAt: now, turns: [...earlier, turn] };
    if (retitle) next = { ...next, title: titleFrom(text), metadata: await renameChat(this.#api, conversation, titleFrom(text)).catch(() => conversation.metadata ?? {}) };
    this.#putConversation(next, true);
    await this.#generate(next.id, turn.id);
  }

  /** Takes the replaced last turn out: its items (if it stood; a stopped or failed turn never joined) and its response. */
  async #dropLastTurn(conversation: Conversation): Promise<void> {
    const api = this.#api;
    const last = conversation.turns.at(-1);
    if (!api || !last) return;
    if (last.responseId) void deleteResponseQuietly(api, last.responseId);
    if (last.status !== 'completed' && last.status !== 'incomplete') return;
    try {
      // A turn answered in this page does not know its item ids: the conversation's last turn is it.
      const itemIds = last.itemIds ?? (await readTurns(api, conversation)).at(-1)?.itemIds ?? [];
      await deleteItems(api, conversation.id, itemIds);
    } catch (error) {
      console.warn('Could not remove the replaced turn from the conversation', error);
    }
  }

  /** Stops the answer being generated: cancels the response (it is kept, `cancelled`). */
  async stop(): Promise<void> {
    const run = this.#run;
    if (!run || !this.#api) return;
    this.update((state) => (state.running ? { ...state, running: { ...state.running, stopping: true } } : state), true);
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

  async #generate(conversationId: string, turnId: string): Promise<void> {
    const api = this.#api;
    if (!api) return;
    const turn = this.#conversation(conversationId)?.turns.find((t) => t.id === turnId);
    if (!turn) return;
    const run = this.#startRun(conversationId, turnId);
    try {
      const vectorStoreId = this.#conversation(conversationId)?.metadata?.[VECTOR_STORE_KEY];
      const stream = await api.client.responses.create(turnRequest(turn, conversationId, this.settings(), this.mcpTokens(), vectorStoreId), { signal: run.abort.signal });
      await this.#consume(run, stream);
    } catch (error) {
      if (!run.abort.signal.aborted) this.#updateTurn(conversationId, turnId, (t) => ({ ...t, status: 'failed', error: errorMessage(error), finishedAt: Date.now() }), { urgent: true });
    }
    await this.#finishRun(run);
  }

  /** Picks up an answer left running (page reloaded, or another tab ran the runtime): its chat opens and resumes it. */
  #resumeAll(): void {
    if (!this.#api || !this.get().loaded || this.#run) return;
    // One at a time, like generation.
    const chat = this.get().conversations.find((c) => c.runningResponseId);
    if (chat) void this.#open(chat.id);
  }

  async #resume(conversationId: string, turn: Turn): Promise<void> {
    const run = this.#startRun(conversationId, turn.id);
    if (!turn.responseId) {
      // The request never reached the server (or its answer never came back).
      this.#updateTurn(conversationId, turn.id, (t) => ({ ...t, status: 'failed', error: 'The page closed before the answer started.', finishedAt: Date.now() }));
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
    this.update((state) => ({ ...state, running: { conversationId, turnId, stopping: false } }), true);
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
    if (api)
      await resumeUntilSettled(api, {
        turn: turnOf,
        onResponse: (response) => this.#updateTurn(run.conversationId, run.turnId, (t) => applyResponse(t, response, Date.now())),
        consume: (stream) => this.#consume(run, stream),
        onGone: () => this.#updateTurn(run.conversationId, run.turnId, (t) => ({ ...t, status: 'failed', error: 'The stored response is gone.', finishedAt: Date.now() })),
        signal: run.abort.signal,
      });
    const turn = turnOf();
    if (turn && isRunning(turn)) {
      this.#updateTurn(run.conversationId, run.turnId, (t) => ({ ...t, status: 'failed', error: t.error ?? 'Lost the connection to the local runtime.', finishedAt: Date.now() }));
    }
    const finished = this.#conversation(run.conversationId);
    if (finished) this.#putConversation({ ...finished, runningResponseId: null, updatedAt: Date.now() });
    this.#announce(run.conversationId);
    if (this.#run === run) this.#run = null;
    this.update((state) => ({ ...state, running: null }), true);
  }

  // ── conversation management ─────────────────────────────────────────────────

  /** Renames the chat: its conversation's `metadata.title`. */
  async rename(id: string, title: string): Promise<void> {
    const conversation = this.#conversation(id);
    const trimmed = title.trim();
    if (!conversation || !trimmed || !this.#api || trimmed === conversation.title) return;
    this.update((state) => ({ ...state, conversations: state.conversations.map((c) => (c.id === id ? { ...c, title: trimmed } : c)) }), true);
    try {
      const metadata = await renameChat(this.#api, conversation, trimmed);
      this.update((state) => ({ ...state, conversations: state.conversations.map((c) => (c.id === id ? { ...c, metadata } : c)) }), true);
      this.#announce(id);
    } catch (error) {
      console.error('Could not rename the conversation', error);
      await this.reload();
    }
  }

  /** Deletes the chat: its conversation, and the stored responses that answered in it. */
  async remove(id: string): Promise<void> {
    if (this.#run?.conversationId === id) await this.stop();
    const conversation = this.#conversation(id);
    if (!conversation) return;
    this.update((state) => ({ ...state, activeId: state.activeId === id ? null : state.activeId, conversations: state.conversations.filter((c) => c.id !== id) }), true);
    if (this.#api) await deleteChat(this.#api, id, conversation.metadata?.[VECTOR_STORE_KEY]).catch((error: unknown) => console.error(`Could not delete the conversation ${id}`, error));
    this.#tabs?.postMessage({ type: 'deleted', id });
  }

  /** The chat as JSON (chat-export.ts). */
  async exportJson(id: string): Promise<string> {
    await this.#open(id);
    const conversation = this.#conversation(id);
    if (!conversation) throw new Error('No such conversation.');
    return exportChat(this.#api, conversation);
  }
}
