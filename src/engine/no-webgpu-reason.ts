/**
 * Why there is no WebGPU, said for the browser the visitor uses (from its user agent), with
 * what they can do: keep to the CPU models here, or open the app where WebGPU exists.
 * Firefox: WebGPU since 141 on Windows; on Linux (and Android) not yet, so nothing in its
 * settings helps a visitor there (measured: Firefox ESR 153 on Linux has no `navigator.gpu`).
 */
const ELSEWHERE = 'open this app in Chrome or Edge (113 or later), or Safari 26 or later';

export function noWebGpuReason(userAgent = ''): string {
  const firefox = /\bFirefox\/(\d+)/.exec(userAgent);
  if (firefox) {
    const platform = /Android/.test(userAgent) ? 'Android' : /Windows/.test(userAgent) ? 'Windows' : /Mac OS X|Macintosh/.test(userAgent) ? 'macOS' : /Linux|X11|BSD/.test(userAgent) ? 'Linux' : null;
    if (platform === 'Windows' && Number(firefox[1]) < 141)
      return `This Firefox (${firefox[1]}) has no WebGPU: Firefox has it on Windows from version 141, so update Firefox, or use the CPU models, which work here.`;
    const where = platform ? `Firefox on ${platform}` : 'This Firefox';
    return `${where} does not provide WebGPU yet (Firefox has it on Windows from version 141). The CPU models work here; for the GPU models, ${ELSEWHERE}.`;
  }
  return (
    'This browser does not provide WebGPU (navigator.gpu is missing). Use a recent Chrome or Edge (113+), ' +
    'Safari 26+, or Firefox 141+ on Windows; the CPU models work without it.'
  );
}
