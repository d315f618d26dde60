import { useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import { OperationErrorNotice, type OperationError } from '../../app/OperationErrorNotice';
import { useIdempotentSubmit } from '../../app/useIdempotentSubmit';
import type { SessionStatus } from '../../gql/graphql';
import { ContinuedChoice } from '../continuation/ContinuedChoice';
import type { ContinuationInitiation } from '../continuation/useContinuationFollower';
import { usePostMessage } from './usePostMessage';
import { AttachmentPicker } from '../attachments/AttachmentPicker';
import { useAttachmentUploads } from '../attachments/useAttachmentUploads';

type Problem = { kind: 'refused'; error: OperationError } | { kind: 'failed'; message: string };

interface ComposerProps {
  session: { id: string; status: SessionStatus };
  /** Where the conversation is now; null until known. */
  currentContinuation: { id: string; title: string } | null;
  initiation: ContinuationInitiation;
}

/**
 * A message being written: its text and attachments, and sending it once (the same draft resent
 * after a network failure cannot post twice), with why it was refused or where the session went.
 */
function useMessageDraft(sessionId: string) {
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<Problem | null>(null);
  // Refused as continued before this view learnt it: where the server says it went.
  const [continuedIn, setContinuedIn] = useState<{ id: string; title: string } | null>(null);
  const { postMessage, posting } = usePostMessage();
  const attached = useAttachmentUploads();
  // One id per draft: resending the same draft after a network failure cannot post it twice.
  const { submit: submitOnce, forget } = useIdempotentSubmit();

  function edit(nextText: string) {
    setText(nextText);
    forget();
  }

  function attach(files: Iterable<File>) {
    attached.add(files);
    // Other files make another message.
    forget();
  }

  function detach(id: string) {
    attached.remove(id);
    forget();
  }

  async function send() {
    const message = text.trim();
    if (message === '' || posting || attached.uploading) return;
    setProblem(null);
    const attachments = attached.cids;
    try {
      // Either way the server answers, it settled this draft; an edited retry is a new message.
      const result = await submitOnce((clientMessageId) => postMessage(sessionId, message, clientMessageId, { attachments }));
      if (!result) return;
      if (result.__typename === 'OperationError' && result.code === 'SESSION_CONTINUED' && result.currentContinuation) {
        setContinuedIn(result.currentContinuation);
      } else if (result.__typename === 'OperationError') {
        setProblem({ kind: 'refused', error: result });
      } else {
        // Keep anything typed while the message was on its way.
        setText((current) => (current.trim() === message ? '' : current));
        attached.clear();
      }
    } catch (caught) {
      setProblem({ kind: 'failed', message: caught instanceof Error ? caught.message : String(caught) });
    }
  }

  return { text, problem, continuedIn, posting, attached, edit, attach, detach, send };
}

/**
 * Writes a user message into the session. A continued session takes none: the composer turns
 * into the choice between its current continuation and a new branch, keeping any draft.
 */
export function Composer({ session, currentContinuation, initiation }: ComposerProps) {
  const sessionId = session.id;
  const { text, problem, continuedIn, posting, attached, edit, attach, detach, send } = useMessageDraft(sessionId);
  const [dropping, setDropping] = useState(false);
  const inputId = useId();
  const hintId = useId();

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

  const continuation = continuedIn ?? (session.status === 'CONTINUED' ? currentContinuation : null);
  if (session.status === 'CONTINUED' && !continuation) {
    return (
      <p className="composer hint" role="status">
        This session was continued; finding where…
      </p>
    );
  }
  if (continuation) {
    return (
      <div className="composer">
        <ContinuedChoice
          sessionId={sessionId}
          currentContinuation={continuation}
          draft={text.trim()}
          initiation={initiation}
        />
      </div>
    );
  }

  return (
    <form
      className={`composer${dropping ? ' composer-dropping' : ''}`}
      onSubmit={submit}
      onDragOver={(event) => {
        if (!event.dataTransfer.types.includes('Files')) return;
        event.preventDefault();
        setDropping(true);
      }}
      onDragLeave={() => setDropping(false)}
      onDrop={(event) => {
        setDropping(false);
        if (event.dataTransfer.files.length === 0) return;
        event.preventDefault();
        attach(event.dataTransfer.files);
      }}
    >
      {problem && <ComposerProblem problem={problem} />}
      <label htmlFor={inputId} className="visually-hidden">
        Message
      </label>
      <textarea
        id={inputId}
        data-composer
        aria-keyshortcuts="/"
        rows={2}
        placeholder="Write a message…"
        aria-describedby={hintId}
        value={text}
        onChange={(event) => edit(event.target.value)}
        onKeyDown={sendOnEnter}
      />
      <div className="composer-toolbar">
        <AttachmentPicker drafts={attached.drafts} onAdd={attach} onRemove={detach} disabled={posting} />
        <p id={hintId} className="hint composer-hint">
          Enter sends, Shift+Enter starts a new line; drop files here to attach them.
        </p>
        <button type="submit" className="button button-primary" disabled={posting || attached.uploading || text.trim() === ''}>
          {posting ? 'Sending…' : 'Send'}
        </button>
      </div>
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
  return <OperationErrorNotice lead="The message was not sent." error={problem.error} />;
}
