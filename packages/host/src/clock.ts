/** The time source of a service; tests pass a fixed one. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/**
 * How far `clock` is ahead of the system clock, in seconds (negative when behind). For libraries that read the
 * system clock themselves and accept an offset (an OpenID client's clock skew, a cache's ages), so that they
 * judge time by the service's clock.
 */
export function offsetFromSystemClock(clock: Clock): number {
  return (clock.now().getTime() - Date.now()) / 1000;
}
