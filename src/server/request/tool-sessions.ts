/**
 * The builtin tools' part in one response: a session per tool the model may use this turn,
 * made from the request's entries (`BuiltinTool.session`). The plan reads their functions,
 * the run hands them the calls the model writes; nothing here knows which tool is which.
 */
import type { ToolSpec } from '../../chat/chat-format';
import type { CallContext, CitedSource, DeferredCandidate, ToolCall, ToolHost, ToolPeers, ToolSession, TurnItems } from '../../ports/builtin-tool';
import type { Tool } from '../../protocol/create-request';
import type { UrlCitation } from '../../protocol/output-items';
import type { ToolRegistry } from '../state/tool-registry';

export class ToolSessions {
  /** Each session at the place of its tool's first entry in `tools` (the order the model is told about them). */
  readonly #sessions: ReadonlyMap<number, ToolSession>;

  private constructor(sessions: ReadonlyMap<number, ToolSession>) {
    this.#sessions = sessions;
  }

  /** Sessions for the builtin entries of `tools` (the ones in play this turn). */
  static open(registry: ToolRegistry, tools: readonly Tool[], turn: TurnItems, host: ToolHost): ToolSessions {
    const sessions = new Map<number, ToolSession>();
    // Read late: a tool that calls tools (a program) reaches the others once all are open.
    let opened: ToolSessions | undefined;
    const peers: ToolPeers = {
      tools,
      functionsAt: (index) => opened?.functionsAt(index) ?? [],
      begin: (name, args, context) => opened?.begin(name, args, context) ?? null,
    };
    // Read lazily too (at a search, at a round): a load made during the run counts.
    const request = { tools, deferred: () => opened?.deferred() ?? [], loaded: () => opened?.loaded() ?? [] };
    for (const [tool, entries] of registry.entries(tools))
      sessions.set(
        entries[0]!.index,
        tool.session(
          entries.map((e) => e.tool),
          turn,
          { ...host, peers },
          request,
        ),
      );
    opened = new ToolSessions(sessions);
    return opened;
  }

  /** The functions of the session whose tool's first entry is `tools[index]` (none at other places). */
  functionsAt(index: number): readonly ToolSpec[] {
    return this.#sessions.get(index)?.functions() ?? [];
  }

  /** Every builtin function the model is told about now. */
  functions(): ToolSpec[] {
    return [...this.#sessions.values()].flatMap((s) => s.functions());
  }

  /** Work the request itself asks for before the first round (see `ToolSession.prepare`). */
  async prepare(context: CallContext): Promise<{ conversation: ToolCallResult; calls: number }> {
    const conversation: ToolCallResult = [];
    let calls = 0;
    for (const session of this.#sessions.values()) {
      if (!session.prepare) continue;
      const done = await session.prepare(context);
      conversation.push(...done.conversation);
      calls += done.calls;
      if (context.signal.aborted) break;
    }
    return { conversation, calls };
  }

  /** The session a model-side function name belongs to, if a builtin's (a loaded deferred function too). */
  owner(name: string): ToolSession | undefined {
    const has = (specs: readonly ToolSpec[] | undefined) => specs?.some((f) => f.name === name) ?? false;
    return [...this.#sessions.values()].find((s) => has(s.functions()) || has(s.loadedFunctions?.()));
  }

  /** The model called `name`: its tool begins the call (null: nothing runs now). */
  begin(name: string, args: string, context: CallContext): ToolCall | null {
    return this.owner(name)?.begin(name, args, context) ?? null;
  }

  /** What the sessions hold back until a search loads it (a deferred MCP server's tools), for a search to rank. */
  deferred(): DeferredCandidate[] {
    return [...this.#sessions.values()].flatMap((s) => s.deferred?.() ?? []);
  }

  /** Tools the sessions made callable beyond the leading list (what a search loaded), in load order. */
  loaded(): Tool[] {
    return [...this.#sessions.values()].flatMap((s) => s.loaded?.() ?? []);
  }

  /** Builtin functions a load made callable (a deferred MCP server's), in load order: never in the leading list. */
  loadedFunctions(): ToolSpec[] {
    return [...this.#sessions.values()].flatMap((s) => s.loadedFunctions?.() ?? []);
  }

  /** Citations of a finished message's text from every tool that showed the model pages. */
  annotate(text: string): UrlCitation[] {
    return [...this.#sessions.values()].flatMap((s) => s.annotate?.(text) ?? []).sort((a, b) => a.start_index - b.start_index);
  }

  /** The numbered sources the answer may cite (`[n]`), null while there are none. */
  sources(): { size: number; get(n: number): CitedSource | undefined } | null {
    for (const session of this.#sessions.values()) {
      const sources = session.sources?.();
      if (sources && sources.size > 0) return sources;
    }
    return null;
  }
}

type ToolCallResult = Awaited<ReturnType<ToolCall['run']>>;
