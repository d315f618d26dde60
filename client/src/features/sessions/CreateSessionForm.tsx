import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { useCreateSession } from './useCreateSession';

export function CreateSessionForm() {
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const { createSession, creating } = useCreateSession();
  const navigate = useNavigate();
  const titleId = useId();
  const descriptionId = useId();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const trimmedTitle = title.trim();
    if (trimmedTitle === '') return;
    setFailure(null);
    try {
      const session = await createSession(trimmedTitle, description.trim() || null);
      await navigate(`/sessions/${session.id}`);
    } catch (caught) {
      setFailure(caught instanceof Error ? caught.message : String(caught));
    }
  }

  return (
    <form className="create-session stack" aria-label="New session" onSubmit={(event) => void submit(event)}>
      <label htmlFor={titleId}>Title</label>
      <input
        id={titleId}
        required
        maxLength={200}
        autoFocus
        placeholder="What the conversation is about"
        value={title}
        onChange={(event) => setTitle(event.target.value)}
      />
      <label htmlFor={descriptionId}>
        Description <span className="hint">(optional)</span>
      </label>
      <textarea
        id={descriptionId}
        rows={2}
        value={description}
        onChange={(event) => setDescription(event.target.value)}
      />
      {failure && (
        <p className="notice notice-error" role="alert">
          The session was not created: {failure}
        </p>
      )}
      <button type="submit" className="button button-primary" disabled={creating || title.trim() === ''}>
        {creating ? 'Creating…' : 'Create session'}
      </button>
    </form>
  );
}
