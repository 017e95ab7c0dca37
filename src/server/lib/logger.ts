// A tiny leveled logger. Secrets never pass through here: callers log ids and messages, not
// request bodies or headers.
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';
const order: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export interface Logger {
  debug(msg: string, extra?: unknown): void;
  info(msg: string, extra?: unknown): void;
  warn(msg: string, extra?: unknown): void;
  error(msg: string, extra?: unknown): void;
}

export function createLogger(level: LogLevel = 'info', sink: (line: string) => void = (l) => console.log(l)): Logger {
  const at = (l: LogLevel) => (msg: string, extra?: unknown) => {
    if (order[l] < order[level]) return;
    const suffix = extra === undefined ? '' : ` ${formatExtra(extra)}`;
    sink(`${new Date().toISOString()} ${l.toUpperCase()} ${msg}${suffix}`);
  };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

function formatExtra(extra: unknown): string {
  if (extra instanceof Error) return formatError(extra);
  try {
    return JSON.stringify(extra);
  } catch {
    return String(extra);
  }
}

/**
 * An error with its causes (a failed query's reason, e.g. "relation ... does not exist", is its
 * cause). A failed query's parameters are not logged: they can hold user text or tokens.
 */
function formatError(err: Error): string {
  const redact = (text: string) => text.replace(/^params: .*$/gm, 'params: [not logged]');
  const stack = err.stack ? redact(err.stack) : '';
  let out = stack.startsWith(`${err.name}: `) ? stack : `${err.name}: ${redact(err.message)}${stack ? `\n${stack}` : ''}`;
  let cause: unknown = err.cause;
  for (let depth = 0; cause !== undefined && cause !== null && depth < 4; depth++) {
    if (cause instanceof Error) {
      const code = (cause as { code?: unknown }).code;
      out += `\nCaused by: ${cause.name}: ${redact(cause.message)}${typeof code === 'string' ? ` [${code}]` : ''}`;
      cause = cause.cause;
    } else {
      out += `\nCaused by: ${String(cause).slice(0, 500)}`;
      break;
    }
  }
  return out;
}
