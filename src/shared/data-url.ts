/** Bytes as a `data:<type>;base64,…` URL (how engines are handed an image's bytes). */
export function bytesToDataUrl(bytes: Uint8Array, type: string): string {
  let binary = '';
  // In slices: `String.fromCharCode(...all)` overflows the call stack on a large image.
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return `data:${type};base64,${btoa(binary)}`;
}
