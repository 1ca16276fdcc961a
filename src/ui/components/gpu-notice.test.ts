import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { expect, test } from 'vitest';
import { GpuNotice } from './gpu-notice';

const noGpu = { usable: false, reason: 'This browser has no WebGPU.' };
const render = (props: Parameters<typeof GpuNotice>[0]) => renderToStaticMarkup(createElement(GpuNotice, props));

test('without WebGPU the CPU models are offered where WebAssembly can run them', () => {
  const html = render({ gpu: noGpu, cpuModels: true, cpu: { usable: true, reason: null } });
  expect(html).toContain('The CPU models still work here, more slowly.');
});

test('where the runtime says the CPU engine cannot run either, the notice says so and why', () => {
  const reason = 'the CPU engine needs 64-bit WebAssembly memory (memory64), which this browser does not support.';
  const html = render({ gpu: noGpu, cpuModels: true, cpu: { usable: false, reason } });
  expect(html).toContain('The CPU models can’t run here either.');
  expect(html).toContain(`CPU models: ${reason}`);
  expect(html).not.toContain('still work here');
});

test('nothing when WebGPU works', () => {
  expect(render({ gpu: { usable: true, reason: null }, cpuModels: true })).toBe('');
});

test('the CPU models say how many threads they run on, and why only one when the page is not isolated', () => {
  expect(render({ gpu: noGpu, cpuModels: true, cpu: { usable: true, reason: null, threads: 4 }, isolation: { crossOriginIsolated: true, reason: null } })).toContain(
    'The CPU models still work here, more slowly (on 4 threads).',
  );
  const reason = 'not cross-origin isolated: the page was served without COOP/COEP';
  const html = render({ gpu: noGpu, cpuModels: true, cpu: { usable: true, reason: null, threads: 1 }, isolation: { crossOriginIsolated: false, reason } });
  expect(html).toContain('The CPU models still work here, more slowly.');
  expect(html).toContain(`CPU models: ${reason}`);
});

test('a software-only WebGPU (SwiftShader) says why the CPU models are suggested', () => {
  const html = render({ gpu: { usable: true, reason: null, software: true }, cpuModels: true, cpu: { usable: true, reason: null } });
  expect(html).toContain('software emulation');
  expect(html).toContain('The CPU models are suggested instead');
});

test('nothing while the check is still running', () => {
  expect(render({ gpu: { usable: undefined, reason: null }, cpuModels: true })).toBe('');
});
