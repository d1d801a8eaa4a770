/** Whether `value` is one of `list`: a code from the API narrowed to the codes the app has words for. */
export function isOneOf<T extends string>(list: readonly T[], value: string): value is T {
  return (list as readonly string[]).includes(value);
}
