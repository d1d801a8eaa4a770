import type Sharp from 'sharp';

let loading: Promise<typeof Sharp> | undefined;

/**
 * sharp, loaded on the first image rather than at start: libvips and its binding are some 10 MiB of resident memory
 * that a process serving no image should not hold (docs/perf/startup.md).
 */
export function loadSharp(): Promise<typeof Sharp> {
  loading ??= import('sharp').then((m) => m.default);
  return loading;
}
