/**
 * Files attached to a chat. A chat's files live in one vector store made for it (its
 * metadata `conversation_id` ties it to the chat's conversation, so retention and deleting
 * the chat take it along; the conversation's metadata `vector_store_id` points back), and
 * every answer of the chat gets the `file_search` tool over it (turn-request.ts). Attaching
 * uploads the file (`POST /v1/files`), adds it to the store, and follows its reading until it
 * is ready or failed: the attachment shows each step. Everything goes through the public API,
 * as any client's would.
 */
import { APIError } from 'openai';
import type { Api } from './api';
import type { ChatStore } from './chat-store';
import { ExternalStore } from './external-store';

export type ChatFileStatus = 'uploading' | 'in_progress' | 'completed' | 'failed' | 'cancelled';

export interface ChatFile {
  /** Local key (the file id is known only once uploaded). */
  key: string;
  fileId: string | null;
  /** As uploaded: untrusted, shown as text only. */
  filename: string;
  bytes: number;
  status: ChatFileStatus;
  error: string | null;
}

export interface ChatFilesState {
  /** By conversation id. */
  byChat: Readonly<Record<string, readonly ChatFile[]>>;
}

/** The conversation metadata key naming a chat's vector store. */
export const VECTOR_STORE_KEY = 'vector_store_id';
/** The vector store metadata key naming its chat's conversation (the runtime's retention reads it). */
export const CONVERSATION_KEY = 'conversation_id';

function messageOf(error: unknown): string {
  if (error instanceof APIError) return (error.error as { message?: string } | undefined)?.message ?? error.message;
  return error instanceof Error ? error.message : String(error);
}

export class ChatFilesStore extends ExternalStore<ChatFilesState> {
  #api: Api | null = null;

  constructor(private readonly chat: ChatStore) {
    super({ byChat: {} });
  }

  connect(api: Api): void {
    this.#api = api;
  }

  /** The chat's files (none known yet: empty). */
  of(conversationId: string | null): readonly ChatFile[] {
    return conversationId ? (this.get().byChat[conversationId] ?? []) : [];
  }

  /** Whether a file of the chat is still being uploaded or read (the model would not find it yet). */
  busy(conversationId: string | null): boolean {
    return this.of(conversationId).some((f) => f.status === 'uploading' || f.status === 'in_progress');
  }

  #put(conversationId: string, files: readonly ChatFile[]): void {
    this.set({ byChat: { ...this.get().byChat, [conversationId]: files } });
  }

  #patch(conversationId: string, key: string, patch: Partial<ChatFile>): void {
    this.#put(conversationId, this.of(conversationId).map((f) => (f.key === key ? { ...f, ...patch } : f)));
  }

  /** Reads the chat's files from its vector store (when it has one). */
  async load(conversationId: string, vectorStoreId: string | undefined): Promise<void> {
    const api = this.#api;
    if (!api || !vectorStoreId) return;
    try {
      const files: ChatFile[] = [];
      for await (const row of api.client.vectorStores.files.list(vectorStoreId, { order: 'asc', limit: 100 })) {
        const file = await api.client.files.retrieve(row.id).catch(() => null);
        files.push({ key: row.id, fileId: row.id, filename: file?.filename ?? row.id, bytes: file?.bytes ?? 0, status: row.status, error: row.last_error?.message ?? null });
      }
      this.#put(conversationId, files);
      for (const file of files) if (file.status === 'in_progress') void this.#follow(conversationId, vectorStoreId, file.key, file.fileId!);
    } catch (error) {
      console.warn(`Could not list the files of ${conversationId}`, error);
    }
  }

  /** Attaches files to the active chat (made now, titled after the first file, when none is open). */
  async attach(files: readonly File[]): Promise<void> {
    const api = this.#api;
    if (!api || files.length === 0) return;
    const conversation = await this.chat.ensureActive(`Files: ${files[0]!.name}`);
    if (!conversation) return;
    const added: ChatFile[] = files.map((file) => ({ key: crypto.randomUUID(), fileId: null, filename: file.name, bytes: file.size, status: 'uploading', error: null }));
    this.#put(conversation.id, [...this.of(conversation.id), ...added]);
    let storeId = conversation.metadata?.[VECTOR_STORE_KEY];
    try {
      if (!storeId) {
        const store = await api.client.vectorStores.create({ name: conversation.title.slice(0, 200), metadata: { [CONVERSATION_KEY]: conversation.id } });
        storeId = store.id;
        await this.chat.setMetadata(conversation.id, { [VECTOR_STORE_KEY]: store.id });
      }
    } catch (error) {
      for (const entry of added) this.#patch(conversation.id, entry.key, { status: 'failed', error: messageOf(error) });
      return;
    }
    await Promise.all(files.map((file, i) => this.#upload(api, conversation.id, storeId, added[i]!.key, file)));
  }

  async #upload(api: Api, conversationId: string, storeId: string, key: string, file: File): Promise<void> {
    try {
      const created = await api.client.files.create({ file, purpose: 'assistants' });
      this.#patch(conversationId, key, { fileId: created.id, status: 'in_progress' });
      await api.client.vectorStores.files.create(storeId, { file_id: created.id });
      await this.#follow(conversationId, storeId, key, created.id);
    } catch (error) {
      this.#patch(conversationId, key, { status: 'failed', error: messageOf(error) });
    }
  }

  /** Waits for the file to be read (the runtime says how often to ask). */
  async #follow(conversationId: string, storeId: string, key: string, fileId: string): Promise<void> {
    const api = this.#api;
    if (!api) return;
    try {
      const row = await api.client.vectorStores.files.poll(storeId, fileId);
      this.#patch(conversationId, key, { status: row.status, error: row.last_error?.message ?? null });
    } catch (error) {
      this.#patch(conversationId, key, { status: 'failed', error: messageOf(error) });
    }
  }

  /** Takes a file out of the chat: detached from its store and deleted. */
  async remove(conversationId: string, key: string, vectorStoreId: string | undefined): Promise<void> {
    const api = this.#api;
    const file = this.of(conversationId).find((f) => f.key === key);
    this.#put(conversationId, this.of(conversationId).filter((f) => f.key !== key));
    if (!api || !file?.fileId) return;
    if (vectorStoreId) await api.client.vectorStores.files.delete(file.fileId, { vector_store_id: vectorStoreId }).catch(() => undefined);
    await api.client.files.delete(file.fileId).catch(() => undefined);
  }

  /** Forgets a deleted chat's files (the runtime deleted them with it). */
  forget(conversationId: string): void {
    const { [conversationId]: _gone, ...rest } = this.get().byChat;
    this.set({ byChat: rest });
  }
}
