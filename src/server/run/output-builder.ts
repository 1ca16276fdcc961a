/**
 * Turns parsed model output into Responses output items and their stream events, in the
 * order OpenAI streams them: `output_item.added` → `content_part.added` → deltas →
 * `*.done` → `content_part.done` → `output_item.done`. Each item keeps one id throughout.
 */
import type { ParseEvent } from '../../chat/chat-format';
import type { Annotation, Compaction, FileCitation, FunctionCall, Logprob, OutputItem, OutputMessage, OutputText, Reasoning, UrlCitation } from '../../protocol/output-items';
import type { UnsequencedEvent } from '../../protocol/stream-events';
import { newId } from '../../shared/ids';
import type { ReasoningSummary } from '../../protocol/create-request';
import { SummaryText } from './reasoning-summary';
import { clientCallFields, type ClientToolTarget } from '../model-view/client-tools';
import { CLIENT_CALL_TYPES } from '../../protocol/client-call-items';
import { clientCallItem } from './client-calls';
import type { CitationMarkers, CitedFile } from './citation-markers';

type Emit = (event: UnsequencedEvent) => void;

/** An output item a builtin tool runs: its fields change while it runs, through the builder. */
export type BuiltinCallItem = OutputItem;

export interface BuilderHooks {
  /** Model-side names of the builtin tools the request enables (read live: MCP tools join once listed). */
  builtinNames?: { has(name: string): boolean };
  /** A builtin call was written by the model: the caller begins its item (see builtin-calls.ts). */
  onBuiltinCall?: (name: string, args: string) => void;
  /** Whether an item ends the response waiting for the client (a tool's approval request). */
  waits?: (item: OutputItem) => boolean;
  /** Citations for a finished message's text. */
  annotate?: (text: string) => UrlCitation[];
  /**
   * Source markers (`[1]`) to turn into `file_citation`s as text streams (citation-markers.ts):
   * asked when a message's text begins; null while the response has no file sources.
   */
  citationMarkers?: () => CitationMarkers | null;
  /** `reasoning.summary`: reasoning items also get a `summary_text` part (see reasoning-summary.ts). */
  summary?: ReasoningSummary;
  /** `include: ["message.output_text.logprobs"]`: output_text parts carry the logprobs of their tokens. */
  logprobs?: boolean;
  /** What the model-side names of custom, namespaced, shell and patch tools stand for (see run-plan.ts). */
  clientTools?: ReadonlyMap<string, ClientToolTarget>;
}

type Open =
  | { kind: 'message'; index: number; item: OutputMessage; text: string; logprobs: Logprob[]; citations: FileCitation[] }
  | { kind: 'reasoning'; index: number; item: Reasoning; text: string; summary: SummaryText | null; summaryOpen: boolean };

/**
 * Owns the output items: nothing outside changes them. Builtin calls, whose items change
 * while the tool runs, are begun, updated and completed through it (`beginBuiltinCall` …);
 * readers get copies.
 */
export class OutputBuilder {
  private readonly output: OutputItem[] = [];
  private open: Open | null = null;
  /** Whitespace between items is held until real text follows, so no whitespace-only messages appear. */
  private pendingSpace = '';
  /** The logprobs of the tokens of `pendingSpace`: they go out with it or not at all. */
  private pendingLogprobs: Logprob[] = [];
  /** The source-marker filter of the text being streamed (null: none, or not asked yet). */
  private markers: CitationMarkers | null = null;
  /** Logprobs of text the marker filter still holds. */
  private markedLogprobs: Logprob[] = [];

  constructor(
    private readonly emitEvent: Emit,
    private readonly hooks: BuilderHooks = {},
  ) {}

  emit(event: UnsequencedEvent): void {
    this.emitEvent(event);
  }

  /** Appends a builtin call's item, which finishes later, and announces it; returns its output index. */
  beginBuiltinCall(item: BuiltinCallItem): number {
    this.flushMarkers();
    this.closeOpen('completed');
    this.pendingSpace = '';
    this.pendingLogprobs = [];
    const index = this.output.push(structuredClone(item)) - 1;
    this.emit({ type: 'response.output_item.added', output_index: index, item: structuredClone(item) });
    return index;
  }

  /** The builtin call at `index` as it stands now (status, code, outputs, sources); no event. */
  updateBuiltinCall(index: number, item: BuiltinCallItem): void {
    const current = this.output[index];
    if (current?.type !== item.type || current.id !== item.id) throw new Error(`Output item ${index} is not the builtin call ${item.id}.`);
    this.output[index] = structuredClone(item);
  }

  /** The builtin call at `index` is done: its final fields are kept and `output_item.done` announces them. */
  completeBuiltinCall(index: number, item: BuiltinCallItem): void {
    this.updateBuiltinCall(index, item);
    this.emit({ type: 'response.output_item.done', output_index: index, item: structuredClone(item) });
  }

  /** An item finished before the model runs (a compaction): appended, and announced added and done. */
  addFinished(item: Compaction): void {
    this.closeOpen('completed');
    const index = this.output.push(structuredClone(item)) - 1;
    this.emit({ type: 'response.output_item.added', output_index: index, item: structuredClone(item) });
    this.emit({ type: 'response.output_item.done', output_index: index, item: structuredClone(item) });
  }

  /** How many output items there are so far. */
  get itemCount(): number {
    return this.output.length;
  }

  /** Copies of the items from output index `start` on, as stored (an open item without its partial text). */
  itemsFrom(start: number): OutputItem[] {
    return this.output.slice(start).map((item) => structuredClone(item));
  }

  /** How many calls for the client to run the model made: function calls, and custom, shell and patch calls. */
  get functionCallCount(): number {
    return this.output.filter((i) => CLIENT_CALL_TYPES.has(i.type)).length;
  }

  /** How many items wait for the client (a tool's approval request): the response ends with them. */
  get waitingCount(): number {
    const waits = this.hooks.waits;
    return waits ? this.output.filter((i) => waits(i)).length : 0;
  }

  /** `logprobs`: for a text event, the logprobs of the tokens it brings (see text-logprobs.ts). */
  accept(event: ParseEvent, logprobs: readonly Logprob[] = []): void {
    switch (event.type) {
      case 'text':
        return this.markedText(event.text, logprobs);
      case 'reasoning':
        return this.reasoning(event.text);
      case 'reasoning_done':
        if (this.open?.kind === 'reasoning') this.closeOpen('completed');
        return;
      case 'tool_call':
        return this.toolCall(event.name, event.arguments);
    }
  }

  /** Closes whatever is open; `incomplete` when generation was cut short. */
  finish(status: 'completed' | 'incomplete'): void {
    this.flushMarkers();
    this.closeOpen(status);
    this.pendingSpace = '';
    this.pendingLogprobs = [];
  }

  /** Text through the source-marker filter, when the response has sources: markers become citations. */
  private markedText(text: string, logprobs: readonly Logprob[]): void {
    this.markers ??= this.hooks.citationMarkers?.() ?? null;
    if (!this.markers) return this.text(text, logprobs);
    this.markedLogprobs.push(...logprobs);
    for (const segment of this.markers.push(text)) {
      if ('text' in segment) {
        this.text(segment.text, this.markedLogprobs);
        this.markedLogprobs = [];
      } else this.cite(segment.cite);
    }
  }

  /** Releases what the marker filter holds (the text ended, or something else begins). */
  private flushMarkers(): void {
    const markers = this.markers;
    if (!markers) return;
    this.markers = null;
    for (const segment of markers.end()) if ('text' in segment) this.text(segment.text, this.markedLogprobs);
    this.markedLogprobs = [];
  }

  /** A `file_citation` where the message's text stands now. */
  private cite(file: CitedFile): void {
    if (this.open?.kind !== 'message') {
      this.pendingSpace = '';
      this.pendingLogprobs = [];
      this.openMessage();
    }
    const open = this.open as Extract<Open, { kind: 'message' }>;
    const annotation: FileCitation = { type: 'file_citation', file_id: file.file_id, filename: file.filename, index: open.text.length };
    open.citations.push(annotation);
    this.emit({ type: 'response.output_text.annotation.added', item_id: open.item.id, output_index: open.index, content_index: 0, annotation_index: open.citations.length - 1, annotation: { ...annotation } });
  }

  private text(text: string, logprobs: readonly Logprob[]): void {
    if (this.open?.kind !== 'message') {
      const all = this.pendingSpace + text;
      const allLogprobs = [...this.pendingLogprobs, ...logprobs];
      if (all.trim() === '') {
        this.pendingSpace = all;
        this.pendingLogprobs = allLogprobs;
        return;
      }
      this.pendingSpace = '';
      this.pendingLogprobs = [];
      this.openMessage();
      text = all;
      logprobs = allLogprobs;
    }
    const open = this.open as Extract<Open, { kind: 'message' }>;
    open.text += text;
    if (this.hooks.logprobs) open.logprobs.push(...logprobs);
    const reported = this.hooks.logprobs ? structuredClone([...logprobs]) : [];
    this.emit({ type: 'response.output_text.delta', item_id: open.item.id, output_index: open.index, content_index: 0, delta: text, logprobs: reported });
  }

  /** An output_text part; with logprobs on, it carries them (`[]` when there are none yet). */
  private textPart(text: string, annotations: Annotation[], logprobs: readonly Logprob[]): OutputText {
    return this.hooks.logprobs ? { type: 'output_text', text, annotations, logprobs: structuredClone([...logprobs]) } : { type: 'output_text', text, annotations };
  }

  private reasoning(text: string): void {
    this.flushMarkers();
    if (this.open?.kind !== 'reasoning') this.openReasoning();
    const open = this.open as Extract<Open, { kind: 'reasoning' }>;
    open.text += text;
    this.emit({ type: 'response.reasoning_text.delta', item_id: open.item.id, output_index: open.index, content_index: 0, delta: text });
    const added = open.summary?.push(text) ?? '';
    if (added === '') return;
    // The summary part opens with its first real text: whitespace-only reasoning has no summary.
    const at = { item_id: open.item.id, output_index: open.index, summary_index: 0 };
    if (!open.summaryOpen) this.emit({ type: 'response.reasoning_summary_part.added', ...at, part: { type: 'summary_text', text: '' } });
    open.summaryOpen = true;
    this.emit({ type: 'response.reasoning_summary_text.delta', ...at, delta: added });
  }

  private toolCall(name: string, args: string): void {
    this.flushMarkers();
    this.closeOpen('completed');
    this.pendingSpace = '';
    this.pendingLogprobs = [];
    if (this.hooks.builtinNames?.has(name)) return this.hooks.onBuiltinCall?.(name, args);
    const target = this.hooks.clientTools?.get(name);
    if (target && target.kind !== 'function') return this.clientCall(target, args);
    // A namespace's function is called by its own name, with its namespace.
    const named = target ? { name: target.name, ...(target.namespace ? { namespace: target.namespace } : {}) } : { name };
    name = named.name;
    const item: FunctionCall = { type: 'function_call', id: newId('fc'), call_id: newId('call'), ...named, arguments: '', status: 'in_progress' };
    const index = this.output.push(item) - 1;
    this.emit({ type: 'response.output_item.added', output_index: index, item: { ...item } });
    this.emit({ type: 'response.function_call_arguments.delta', item_id: item.id, output_index: index, delta: args });
    this.emit({ type: 'response.function_call_arguments.done', item_id: item.id, output_index: index, name, arguments: args });
    item.arguments = args;
    item.status = 'completed';
    this.emit({ type: 'response.output_item.done', output_index: index, item: { ...item } });
  }

  /** A custom, shell, local shell or patch call: appended whole, with its events (client-calls.ts). */
  private clientCall(target: ClientToolTarget, args: string): void {
    const fields = clientCallFields(target, args);
    // The parser let only calls whose arguments fit through (see run-plan.ts `acceptsCall`).
    if (!fields || fields.kind === 'function') return;
    const { item, events } = clientCallItem(target, fields, this.output.length);
    this.output.push(item);
    for (const event of events) this.emit(structuredClone(event));
  }

  private openMessage(): void {
    this.closeOpen('completed');
    const item: OutputMessage = { type: 'message', id: newId('msg'), role: 'assistant', status: 'in_progress', content: [] };
    const index = this.output.push(item) - 1;
    this.open = { kind: 'message', index, item, text: '', logprobs: [], citations: [] };
    this.emit({ type: 'response.output_item.added', output_index: index, item: { ...item, content: [] } });
    this.emit({ type: 'response.content_part.added', item_id: item.id, output_index: index, content_index: 0, part: this.textPart('', [], []) });
  }

  private openReasoning(): void {
    this.closeOpen('completed');
    const item: Reasoning = { type: 'reasoning', id: newId('rs'), summary: [], content: [], status: 'in_progress' };
    const index = this.output.push(item) - 1;
    const summary = this.hooks.summary ? new SummaryText(this.hooks.summary) : null;
    this.open = { kind: 'reasoning', index, item, text: '', summary, summaryOpen: false };
    this.emit({ type: 'response.output_item.added', output_index: index, item: { ...item, content: [] } });
    this.emit({ type: 'response.content_part.added', item_id: item.id, output_index: index, content_index: 0, part: { type: 'reasoning_text', text: '' } });
  }

  private closeOpen(status: 'completed' | 'incomplete'): void {
    const open = this.open;
    if (!open) return;
    this.open = null;
    const { item, index, text } = open;
    if (open.kind === 'message') {
      // File citations were announced as their markers streamed; URL citations come now, after them.
      const urls = this.hooks.annotate?.(text) ?? [];
      urls.forEach((annotation, i) =>
        this.emit({ type: 'response.output_text.annotation.added', item_id: item.id, output_index: index, content_index: 0, annotation_index: open.citations.length + i, annotation }),
      );
      const annotations: Annotation[] = [...open.citations, ...urls];
      const part = this.textPart(text, annotations, open.logprobs);
      this.emit({ type: 'response.output_text.done', item_id: item.id, output_index: index, content_index: 0, text, logprobs: structuredClone(part.logprobs ?? []) });
      this.emit({ type: 'response.content_part.done', item_id: item.id, output_index: index, content_index: 0, part });
      open.item.content = [part];
    } else {
      const part = { type: 'reasoning_text' as const, text };
      this.emit({ type: 'response.reasoning_text.done', item_id: item.id, output_index: index, content_index: 0, text });
      this.emit({ type: 'response.content_part.done', item_id: item.id, output_index: index, content_index: 0, part });
      open.item.content = [part];
      if (open.summaryOpen && open.summary) {
        const summary = { type: 'summary_text' as const, text: open.summary.value };
        const at = { item_id: item.id, output_index: index, summary_index: 0 };
        this.emit({ type: 'response.reasoning_summary_text.done', ...at, text: summary.text });
        this.emit({ type: 'response.reasoning_summary_part.done', ...at, part: summary });
        open.item.summary = [summary];
      }
    }
    item.status = status;
    this.emit({ type: 'response.output_item.done', output_index: index, item: structuredClone(item) });
  }

  /** A snapshot of the output so far, with open items showing their partial text. */
  snapshot(): OutputItem[] {
    return this.output.map((item) => {
      const open = this.open;
      if (open && open.item === item) {
        if (open.kind === 'message') return { ...open.item, content: [this.textPart(open.text, structuredClone(open.citations), open.logprobs)] };
        const summary = open.summaryOpen && open.summary ? [{ type: 'summary_text' as const, text: open.summary.value }] : [];
        return { ...open.item, summary, content: [{ type: 'reasoning_text' as const, text: open.text }] };
      }
      return structuredClone(item);
    });
  }
}
