/**
 * A chat as the app shows it. A chat is one server conversation (`conv_…`, the Conversations
 * API): its title is the conversation's `metadata.title`, its turns are read from the
 * conversation's items (conversation-turns.ts). What a turn adds beyond the items (usage,
 * timings, a stopped answer) lives only while the page is open. The `Conversation` shape is
 * also what older versions kept in the app's own database (legacy-chats.ts migrates those).
 */
import type { ResponseOutputItem, ResponseUsage } from 'openai/resources/responses/responses';

export type TurnStatus = 'queued' | 'in_progress' | 'completed' | 'incomplete' | 'cancelled' | 'failed';

/** The person's answer to an MCP approval request (a turn that continues the previous response). */
export interface McpApproval {
  requestId: string;
  approve: boolean;
  /** What the request named, for the turn's own line in the chat. */
  server: string;
  tool: string;
}

export interface Turn {
  /** Local id (stable across regenerate/edit of this position). */
  id: string;
  /** What the person wrote (for an approval turn: a line saying what they decided). */
  input: string;
  /** Set when the turn sends an `mcp_approval_response` instead of a message. */
  approval?: McpApproval;
  model: string;
  /**
   * The model that served it (`response.model`), when the server says: under a route
   * (`model` is the route's name) the device's model or the provider's, decided per turn.
   */
  servedBy?: string;
  /** Set once the server created the response; null when the request was rejected. */
  responseId: string | null;
  status: TurnStatus;
  output: ResponseOutputItem[];
  usage: ResponseUsage | null;
  /** Why it failed or was rejected, as the server said it. */
  error: string | null;
  incompleteReason: string | null;
  /** ms since epoch. */
  startedAt: number;
  firstTokenAt: number | null;
  finishedAt: number | null;
  /** Last stream event applied: where a resumed stream continues (`starting_after`). */
  lastSequence: number;
  /** The conversation items this turn is made of, when read from the conversation (edit/regenerate remove them). */
  itemIds?: string[];
}

export interface Conversation {
  /** The server conversation's id (`conv_…`); a random UUID in chats saved by older versions. */
  id: string;
  title: string;
  createdAt: number;
  updatedAt: number;
  turns: Turn[];
  /** The conversation's metadata as the server has it (a rename keeps the other keys). */
  metadata?: Record<string, string>;
  /** False until the turns were read from the conversation's items (the list carries none). */
  opened?: boolean;
  /** A response of it still running on the server (e.g. started before a reload). */
  runningResponseId?: string | null;
}

export const TERMINAL: ReadonlySet<TurnStatus> = new Set(['completed', 'incomplete', 'cancelled', 'failed']);

export function isRunning(turn: Turn): boolean {
  return !TERMINAL.has(turn.status);
}

/** The first line of the first message, shortened: what the sidebar shows. */
export function titleFrom(text: string): string {
  const line = text.trim().split('\n')[0]?.trim() ?? '';
  const flat = line.replace(/\s+/g, ' ');
  if (!flat) return 'New chat';
  return flat.length > 60 ? `${flat.slice(0, 57).trimEnd()}…` : flat;
}

export function newTurn(input: string, model: string, now: number): Turn {
  return {
    id: crypto.randomUUID(),
    input,
    model,
    responseId: null,
    status: 'queued',
    output: [],
    usage: null,
    error: null,
    incompleteReason: null,
    startedAt: now,
    firstTokenAt: null,
    finishedAt: null,
    lastSequence: -1,
  };
}

/** A turn that answers an approval request of the previous response. */
export function newApprovalTurn(approval: McpApproval, model: string, now: number): Turn {
  const verb = approval.approve ? 'Approved' : 'Denied';
  return { ...newTurn(`${verb}: ${approval.tool} on ${approval.server}`, model, now), approval };
}

/**
 * What the person decided about each approval request of the conversation (request id →
 * approve), from its approval turns: an answered request's card shows the decision.
 */
export function approvalDecisions(turns: readonly Turn[]): ReadonlyMap<string, boolean> {
  const decided = new Map<string, boolean>();
  for (const turn of turns) if (turn.approval) decided.set(turn.approval.requestId, turn.approval.approve);
  return decided;
}

/** Output tokens per second, counted from the first token (so queueing and loading do not count). */
export function tokensPerSecond(turn: Turn): number | null {
  if (!turn.usage || turn.finishedAt === null) return null;
  const from = turn.firstTokenAt ?? turn.startedAt;
  const seconds = (turn.finishedAt - from) / 1000;
  if (turn.usage.output_tokens <= 0 || seconds <= 0) return null;
  return turn.usage.output_tokens / seconds;
}

/** The answer's visible text (for copy/export). */
export function answerText(turn: Turn): string {
  return turn.output
    .flatMap((item) => (item.type === 'message' ? item.content.map((c) => (c.type === 'output_text' ? c.text : c.refusal)) : []))
    .join('');
}

/**
 * The server's list of chats merged into the one this tab shows: chats already opened keep
 * their turns (with the list's title, metadata and running answer), and a chat this tab just
 * created (or could not save) stays, while it is the active one, until the list has it.
 * Newest first.
 */
export function mergeListed(shown: readonly Conversation[], listed: readonly Conversation[], activeId: string | null): Conversation[] {
  const known = new Map(shown.map((c) => [c.id, c]));
  const merged = listed.map((c) => {
    const had = known.get(c.id);
    return had?.opened ? { ...had, title: c.title, metadata: c.metadata, updatedAt: Math.max(had.updatedAt, c.updatedAt), runningResponseId: c.runningResponseId } : c;
  });
  const unlisted = shown.filter((c) => c.opened && !listed.some((l) => l.id === c.id) && c.id === activeId);
  return [...unlisted, ...merged].sort((a, b) => b.updatedAt - a.updatedAt);
}
