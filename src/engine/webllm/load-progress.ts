/**
 * web-llm's load reports (`InitProgressReport`: `progress` 0..1 + free text) as our
 * `LoadProgress` phases. What web-llm 0.2.86 reports, in order (texts from
 * @mlc-ai/web-runtime `fetchTensorCacheInternal` / `asyncLoadWebGPUPipelines` and
 * `MLCEngine.reloadInternal`):
 *
 * 1. nothing while it fetches `mlc-chat-config.json`, the model library and the tokenizer
 *    (the adapter reports `download` 0 itself before calling `reload`);
 * 2. `Start to fetch params` (progress 0);
 * 3. `Fetching param cache[i/n]: <MB>MB fetched. <p>% completed, …`, once per weight shard,
 *    only when some shard is not cached yet; `progress` is fetched bytes / total bytes;
 * 4. `Loading model from cache[i/n]: <MB>MB loaded. …`: shards copied into GPU memory;
 * 5. `Loading GPU shader modules[i/n]: …`: WGSL pipelines compiled;
 * 6. `Finish loading on WebGPU - <adapter>` (progress 1).
 *
 * Phases: 3 (and 2) are `download`, with bytes; 4 and 5 are `compile` (on-device
 * preparation), 4 filling the first half of its progress and 5 the second half so the
 * bar never goes back; 6 is `ready`.
 */
import type { InitProgressReport } from '@mlc-ai/web-llm';
import type { LoadProgress } from '../../protocol/local-status';

const MIB = 1024 * 1024;

/** Maps one web-llm report; `previous` keeps the phase when a text is not recognised. */
export function toLoadProgress(model: string, report: InitProgressReport, previous?: LoadProgress | null): LoadProgress {
  const { text } = report;
  const progress = Math.min(1, Math.max(0, Number.isFinite(report.progress) ? report.progress : 0));
  if (/^Finish loading/i.test(text)) return { model, phase: 'ready', progress: 1, text };
  if (/^Loading GPU shader modules/i.test(text)) return { model, phase: 'compile', progress: 0.5 + progress / 2, text };
  if (/^Loading model from cache/i.test(text)) return { model, phase: 'compile', progress: progress / 2, text };
  if (/^(Fetching param cache|Start to fetch params)/i.test(text)) {
    const mb = /(\d+(?:\.\d+)?)\s*MB fetched/i.exec(text);
    // web-llm rounds fetched bytes up to whole MiB in the text; the total follows from `progress`.
    const loadedBytes = mb ? Number(mb[1]) * MIB : undefined;
    const totalBytes = loadedBytes !== undefined && progress > 0.01 ? Math.round(loadedBytes / progress) : undefined;
    return {
      model,
      phase: 'download',
      progress,
      ...(loadedBytes !== undefined ? { loadedBytes } : {}),
      ...(totalBytes !== undefined ? { totalBytes } : {}),
      text,
    };
  }
  return { model, phase: previous?.phase ?? 'download', progress: previous?.progress ?? progress, text };
}
