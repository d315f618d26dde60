import { useId } from 'react';
import type { DraftFields } from './useContinuationDraft';

/** The budget field's lowest value, as the server documents it. */
const MINIMUM_TOKEN_BUDGET = 64;

interface ContinueSessionFieldsProps {
  fields: DraftFields;
  onChange<K extends keyof DraftFields>(field: K, value: DraftFields[K]): void;
  /** The server's default budget, once a preview has told it; null until then. */
  defaultBudget: number | null;
}

/** The fields of a continuation request: what the successor is called, is for, starts from and may spend. */
export function ContinueSessionFields({ fields, onChange, defaultBudget }: ContinueSessionFieldsProps) {
  const id = useId();
  const serverDefault = defaultBudget === null ? "the server's default" : `the server's default, ${defaultBudget.toLocaleString()} tokens`;
  return (
    <div className="continue-fields stack">
      <label htmlFor={`${id}-title`}>Title</label>
      <input id={`${id}-title`} autoFocus required maxLength={200} value={fields.title} onChange={(e) => onChange('title', e.target.value)} />
      <label htmlFor={`${id}-purpose`}>Purpose</label>
      <textarea
        id={`${id}-purpose`}
        required
        rows={2}
        placeholder="What the new session is for"
        value={fields.purpose}
        onChange={(e) => onChange('purpose', e.target.value)}
      />
      <label htmlFor={`${id}-request`}>Current request</label>
      <textarea id={`${id}-request`} required rows={2} value={fields.currentRequest} onChange={(e) => onChange('currentRequest', e.target.value)} />
      <ListField id={`${id}-decisions`} label="Decisions" value={fields.decisions} onChange={(value) => onChange('decisions', value)} />
      <ListField id={`${id}-facts`} label="Established facts" value={fields.establishedFacts} onChange={(value) => onChange('establishedFacts', value)} />
      <ListField id={`${id}-questions`} label="Open questions" value={fields.openQuestions} onChange={(value) => onChange('openQuestions', value)} />
      <label htmlFor={`${id}-budget`}>Token budget</label>
      <input
        id={`${id}-budget`}
        type="number"
        inputMode="numeric"
        min={MINIMUM_TOKEN_BUDGET}
        step={1}
        placeholder={defaultBudget === null ? 'Server default' : defaultBudget.toLocaleString()}
        aria-describedby={`${id}-budget-hint`}
        value={fields.tokenBudget}
        onChange={(e) => onChange('tokenBudget', e.target.value)}
      />
      <p id={`${id}-budget-hint`} className="hint">
        Tokens of the new session's starting context; sources that do not fit stay linked but are not loaded. Left empty:{' '}
        {serverDefault}.
      </p>
      <label className="checkbox-field">
        <input
          type="checkbox"
          checked={fields.assisted}
          aria-describedby={`${id}-assist-hint`}
          onChange={(e) => onChange('assisted', e.target.checked)}
        />{' '}
        Assisted selection
      </label>
      <p id={`${id}-assist-hint`} className="hint">
        Instead of citing the whole conversation, carry the parts of this lineage that match the purpose and current request. The
        rest stays reachable from the new session.
      </p>
    </div>
  );
}

interface ListFieldProps {
  id: string;
  label: string;
  value: string;
  onChange(value: string): void;
}

function ListField({ id, label, value, onChange }: ListFieldProps) {
  return (
    <>
      <label htmlFor={id}>
        {label} <span className="hint">(optional, one per line)</span>
      </label>
      <textarea id={id} rows={2} value={value} onChange={(event) => onChange(event.target.value)} />
    </>
  );
}
