import { describe, expect, test } from 'vitest';
import type { ModelEntry } from './api';
import { suggestModel } from './suggest-model';

const MB = 1024 ** 2;
const model = (id: string, patch: Partial<ModelEntry>): ModelEntry => ({ id, created: 0, owned_by: 'x', engine: 'web-llm', ...patch });
const catalog = [
  model('test-scripted', { engine: 'scripted', hidden: true }),
  model('tiny', { download_bytes: 300 * MB, vram_bytes: 900 * MB, capabilities: { tools: false, reasoning: false } }),
  model('small-tools', { download_bytes: 500 * MB, vram_bytes: 1400 * MB, capabilities: { tools: true, reasoning: true } }),
  model('mid-tools', { download_bytes: 1100 * MB, vram_bytes: 2300 * MB, capabilities: { tools: true, reasoning: true } }),
  model('big', { download_bytes: 2500 * MB, vram_bytes: 4000 * MB, capabilities: { tools: true, reasoning: true } }),
  model('cpu', { engine: 'wllama', download_bytes: 400 * MB, capabilities: { tools: true, reasoning: false } }),
];

describe('suggestModel', () => {
  test('a capable model within the memory budget and a small download', () => {
    expect(suggestModel(catalog, { gpuUsable: true, deviceMemoryGb: 8 })?.id).toBe('mid-tools');
    expect(suggestModel(catalog, { gpuUsable: true, deviceMemoryGb: 4 })?.id).toBe('small-tools');
    expect(suggestModel(catalog, { gpuUsable: true, deviceMemoryGb: 2 })?.id).toBe('cpu');
  });

  test('without WebGPU only CPU models; hidden models never', () => {
    expect(suggestModel(catalog, { gpuUsable: false })?.id).toBe('cpu');
    expect(suggestModel(catalog.slice(0, 1), { gpuUsable: true })).toBeNull();
  });

  test('CPU models only where the runtime says they can run', () => {
    expect(suggestModel(catalog, { gpuUsable: false, cpuUsable: false })).toBeNull();
    // On a small device only the CPU model fits the memory budget: none then.
    expect(suggestModel(catalog, { gpuUsable: true, deviceMemoryGb: 2, cpuUsable: false })).toBeNull();
    expect(suggestModel(catalog, { gpuUsable: true, deviceMemoryGb: 4, cpuUsable: false })?.id).toBe('small-tools');
  });

  test('the models the server recommends for this device come first', () => {
    const marked = catalog.map((m) => (m.engine === 'wllama' ? { ...m, recommended: true } : m));
    expect(suggestModel(marked, { gpuUsable: true, deviceMemoryGb: 8 })?.id).toBe('cpu');
  });
});
