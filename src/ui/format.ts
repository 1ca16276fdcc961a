/** Numbers as people read them. */

/**
 * Bytes in 1000-based units (kB, MB, GB), the ones the runtime's own messages use
 * (engine/engine-errors.ts), so a size reads the same in the catalog, the storage view, a
 * retention limit and an error.
 */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '–';
  if (bytes < 1000) return `${Math.round(bytes)} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 999.5 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2)} ${units[unit]}`;
}

/** "45 s", "3 min", "1 h 5 min". */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '–';
  if (seconds < 60) return `${Math.max(1, Math.round(seconds))} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

export function formatPercent(fraction: number): string {
  const clamped = Math.min(1, Math.max(0, fraction));
  return `${Math.floor(clamped * 100)}%`;
}

export interface ProgressSample {
  /** ms */
  at: number;
  /** 0..1 */
  progress: number;
  loadedBytes?: number;
  totalBytes?: number;
}

/**
 * Seconds left, from the average speed since `first`: bytes when both samples have them,
 * else the progress fraction. null until there is enough to say (no movement yet).
 */
export function secondsLeft(first: ProgressSample, latest: ProgressSample): number | null {
  const elapsed = (latest.at - first.at) / 1000;
  if (elapsed < 0.5) return null;
  if (latest.loadedBytes !== undefined && first.loadedBytes !== undefined && latest.totalBytes) {
    const rate = (latest.loadedBytes - first.loadedBytes) / elapsed;
    return rate > 0 ? (latest.totalBytes - latest.loadedBytes) / rate : null;
  }
  const rate = (latest.progress - first.progress) / elapsed;
  return rate > 0 ? (1 - latest.progress) / rate : null;
}

/** "312 MB of 1.2 GB · 26% · about 2 min left" (parts only as known). */
export function describeProgress(first: ProgressSample, latest: ProgressSample): string {
  const parts: string[] = [];
  if (latest.loadedBytes !== undefined && latest.totalBytes) parts.push(`${formatBytes(latest.loadedBytes)} of ${formatBytes(latest.totalBytes)}`);
  parts.push(formatPercent(latest.progress));
  const left = secondsLeft(first, latest);
  if (left !== null && latest.progress < 1) parts.push(`about ${formatDuration(left)} left`);
  return parts.join(' · ');
}

export type LoadPhase = 'download' | 'compile' | 'ready';

export interface LoadView {
  /** 0..1 for the bar: the download's own fraction, then 1 once the files are here. */
  value: number;
  /** What the card says, in this app's own words and units (never the engine's free text). */
  text: string;
}

/**
 * A model load as the progress card shows it. The engines' own texts are not shown: web-llm
 * counts MiB ("379MB fetched" for a 397 MB download) and restarts its bar at 0% when it
 * prepares the model after the download. Here the download reads in the catalog's
 * 1000-based units and, once the files are in, stays at 100% while the model is prepared.
 *
 * @example describeLoad('download', first, latest) // "Downloading · 250 kB of 1.00 kB · 25% · about 30 s left"
 */
export function describeLoad(phase: LoadPhase, first: ProgressSample, latest: ProgressSample): LoadView {
  if (phase === 'ready') return { value: 1, text: 'Downloaded · 100% · ready' };
  if (phase === 'compile') {
    const size = latest.totalBytes ? `${formatBytes(latest.totalBytes)} · ` : '';
    return { value: 1, text: `Downloaded ${size}100% · preparing the model on this device…` };
  }
  return { value: Math.min(1, Math.max(0, latest.progress)), text: `Downloading · ${describeProgress(first, latest)}` };
}

export function formatTokensPerSecond(rate: number): string {
  return `${rate >= 100 ? rate.toFixed(0) : rate.toFixed(1)} tok/s`;
}
