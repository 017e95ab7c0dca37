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
  if (extra instanceof Error) return `${extra.name}: ${extra.message}${extra.stack ? `\n${extra.stack}` : ''}`;
  try {
    return JSON.stringify(extra);
  } catch {
    return String(extra);
  }
}
