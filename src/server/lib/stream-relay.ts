// A web stream passed on chunk by chunk (no buffering: highWaterMark 0), where the caller decides
// what a failed read of the source becomes (log it, fail the copy, close the connection). Cancelling
// the copy (the listener left) cancels the source, and a read failing after that is nobody's news.
export function relayStream(
  source: ReadableStream<Uint8Array>,
  onBroken: (err: unknown, copy: ReadableStreamDefaultController<Uint8Array>) => void,
): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  let cancelled = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader.read();
        } catch (err) {
          if (!cancelled) onBroken(err, controller);
          return;
        }
        if (cancelled) return;
        if (chunk.done) controller.close();
        else controller.enqueue(chunk.value);
      },
      cancel(reason) {
        cancelled = true;
        return reader.cancel(reason).catch(() => undefined);
      },
    },
    { highWaterMark: 0 },
  );
}
