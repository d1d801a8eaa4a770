import { type DestinationStream, type Logger, pino } from 'pino';

export type { Logger };

/** JSON logs on stdout (or the given stream); `service` names the emitter, child loggers add `requestId`. */
export function createLogger(service: string, level = 'info', destination?: DestinationStream): Logger {
  const options = {
    name: service,
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: {
      paths: [
        'password',
        '*.password',
        'token',
        '*.token',
        'secret',
        '*.secret',
        'headers.authorization',
        'req.headers.authorization',
        'req.headers.cookie',
      ],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
