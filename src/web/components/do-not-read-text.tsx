// A reply quoted as plain text outside the chat (the report dialog, a flag's excerpt): its
// DO_NOT_READ blocks (citations such as "from notes.txt (chunk 2)") are shown bold, as the chat
// shows them, and the markers themselves never appear. Text nodes only: never rendered as HTML.
import { Fragment } from 'react';
import { splitDoNotRead } from '../../shared/do-not-read';

export function DoNotReadText({ text }: { text: string }) {
  return (
    <>
      {splitDoNotRead(text).map((segment, i) => (segment.doNotRead ? <strong key={i}>{segment.text}</strong> : <Fragment key={i}>{segment.text}</Fragment>))}
    </>
  );
}
