import { type DestinationStream, type Logger, pino } from 'pino';

export type { Logger };

const REDACT = [
  'password',
  '*.password',
  'token',
  '*.token',
  'secret',
  '*.secret',
  'headers.authorization',
  'req.headers.authorization',
  'req.headers.cookie',
];

function rootLogger(base: Record<string, string>, level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    base,
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACT, censor: '[redacted]' },
  };
  return destination ? pino(options, destination) : pino(options);
}

/**
 * JSON logs on stdout (or the given stream) for a process that runs one service: `service` names the emitter
 * once, in the base; child loggers add `requestId` and the like, never `service` again.
 */
export function createLogger(service: string, level = 'info', destination?: DestinationStream): Logger {
  return rootLogger({ service }, level, destination);
}

/**
 * JSON logs for a process that hosts several services (embedded mode): the root carries no `service`, and
 * each service logs through `serviceLogger(root, name)`, so every line names its emitter exactly once.
 */
export function createHostLogger(level = 'info', destination?: DestinationStream): Logger {
  return rootLogger({}, level, destination);
}

/** The logger of one service inside a process created with `createHostLogger`. */
export function serviceLogger(host: Logger, service: string): Logger {
  return host.child({ service });
}
