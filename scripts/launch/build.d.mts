// Types of build.mjs, for the tests that drive it.
export const ROOT: string;
export const CACHE_DIR: string;
export const EMBEDDED_BUNDLE: { entry: string; output: string };
export class Interrupted extends Error {}
export interface Step {
  id: string;
  label: string;
  run: () => Promise<void>;
  inputs?: string[];
  outputs?: string[];
}
export function hashInputs(root: string, paths: string[]): string;
export function runSteps(
  steps: Step[],
  options?: { root?: string; cacheDir?: string; force?: boolean; out?: { write(text: string): unknown } },
): Promise<void>;
export function steps(): Step[];
export function build(out?: NodeJS.WritableStream, options?: { force?: boolean }): Promise<void>;
export function buildCommand(): Promise<void>;
