import { useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import type { PostMessageMutation } from '../../gql/graphql';
import { usePostMessage } from './usePostMessage';

type OperationError = Extract<PostMessageMutation['postMessage'], { __typename: 'OperationError' }>;

type Problem = { kind: 'refused'; error: OperationError } | { kind: 'failed'; message: string };

/** Writes a user message into the session. */
export function Composer({ sessionId }: { sessionId: string }) {
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<Problem | null>(null);
  const { postMessage, posting } = usePostMessage();
  // One id per draft: resending the same draft after a network failure cannot post it twice.
  const clientMessageId = useRef<string | null>(null);
  const inputId = useId();
  const hintId = useId();

  function edit(nextText: string) {
    setText(nextText);
    clientMessageId.current = null;
  }

  async function send() {
    const message = text.trim();
    if (message === '' || posting) return;
    clientMessageId.current ??= crypto.randomUUID();
    setProblem(null);
    try {
      const result = await postMessage(sessionId, message, clientMessageId.current);
      // Either way the server settled this draft; an edited retry is a new message.
      clientMessageId.current = null;
      if (result.__typename === 'OperationError') {
        setProblem({ kind: 'refused', error: result });
      } else {
        setText('');
      }
    } catch (caught) {
      setProblem({ kind: 'failed', message: caught instanceof Error ? caught.message : String(caught) });
    }
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void send();
  }

  function sendOnEnter(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void send();
    }
  }

  return (
    <form className="composer" onSubmit={submit}>
      {problem && <ComposerProblem problem={problem} />}
      <label htmlFor={inputId} className="visually-hidden">
        Message
      </label>
      <div className="composer-row">
        <textarea
          id={inputId}
          rows={2}
          placeholder="Write a message…"
          aria-describedby={hintId}
          value={text}
          onChange={(event) => edit(event.target.value)}
          onKeyDown={sendOnEnter}
        />
        <button type="submit" className="button button-primary" disabled={posting || text.trim() === ''}>
          {posting ? 'Sending…' : 'Send'}
        </button>
      </div>
      <p id={hintId} className="hint">
        Enter sends, Shift+Enter starts a new line.
      </p>
    </form>
  );
}

function ComposerProblem({ problem }: { problem: Problem }) {
  if (problem.kind === 'failed') {
    return (
      <div className="notice notice-error" role="alert">
        The message was not sent: {problem.message}
      </div>
    );
  }
  const { error } = problem;
  return (
    <div className="notice notice-error" role="alert">
      <p>{error.message}</p>
      {error.details.length > 0 && (
        <ul>
          {error.details.map((detail) => (
            <li key={`${detail.path.join('.')}:${detail.message}`}>
              <code>{detail.path.join('.')}</code>: {detail.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
