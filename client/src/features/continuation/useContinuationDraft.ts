import { useMemo, useState } from 'react';
import { nextPartTitle } from './continuation-title';
import { recommendationAsSource, recommendationKey } from './RecommendedSourcesChoice';
import { useProjectionPreview, type ContinuationDraft } from './useProjectionPreview';

/** The dialog's fields as typed: lists one entry per line, an empty budget for the server's default. */
export interface DraftFields {
  title: string;
  purpose: string;
  currentRequest: string;
  decisions: string;
  establishedFacts: string;
  openQuestions: string;
  tokenBudget: string;
  assisted: boolean;
}

export interface DraftSession {
  id: string;
  title: string;
  eventCount: number;
}

/** One entry per non-empty line. */
function lines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/** Empty: the server decides; otherwise the number typed (NaN when it is none). */
function budgetOf(field: string): number | undefined {
  return field.trim() === '' ? undefined : Number(field);
}

/** Filled in as the form requires, so the server has a request worth compiling. */
function isComplete(draft: ContinuationDraft): boolean {
  return (
    draft.title !== '' &&
    draft.handoff.purpose !== '' &&
    draft.handoff.currentRequest !== '' &&
    (draft.tokenBudget === undefined || Number.isInteger(draft.tokenBudget))
  );
}

/**
 * The continuation a person is drafting: its fields (starting from the session's next part as
 * the title and its latest user message as the current request), the request they make, its
 * preview as they type, and with assisted selection the recommended sources kept or dropped.
 * `onEdit` hears of every change: a refusal or a key answered the request as it was.
 */
export function useContinuationDraft(session: DraftSession, latestUserMessage: string, onEdit: () => void) {
  const [fields, setFields] = useState<DraftFields>(() => ({
    title: nextPartTitle(session.title),
    purpose: '',
    currentRequest: latestUserMessage,
    decisions: '',
    establishedFacts: '',
    openQuestions: '',
    tokenBudget: '',
    assisted: false,
  }));
  const [dropped, setDropped] = useState<ReadonlySet<string>>(new Set());
  // The server's default budget, as a preview without a budget answered it.
  const [defaultBudget, setDefaultBudget] = useState<number | null>(null);

  function edit<K extends keyof DraftFields>(field: K, value: DraftFields[K]) {
    setFields((current) => ({ ...current, [field]: value }));
    onEdit();
  }

  function toggleRecommendation(key: string) {
    const next = new Set(dropped);
    if (!next.delete(key)) next.add(key);
    setDropped(next);
    onEdit();
  }

  // The request before any recommendation is dropped; with assistance, its preview is where the recommendations come from.
  const assistedDraft = useMemo<ContinuationDraft>(
    () => ({
      sessionId: session.id,
      eventCount: session.eventCount,
      title: fields.title.trim(),
      tokenBudget: budgetOf(fields.tokenBudget),
      handoff: {
        purpose: fields.purpose.trim(),
        currentRequest: fields.currentRequest.trim(),
        decisions: lines(fields.decisions),
        establishedFacts: lines(fields.establishedFacts),
        openQuestions: lines(fields.openQuestions),
      },
      selection: { kind: fields.assisted ? 'assisted' : 'conversation' },
    }),
    [session.id, session.eventCount, fields],
  );
  const complete = isComplete(assistedDraft);
  const assistedPreview = useProjectionPreview(complete ? assistedDraft : null);
  const assistedResult = assistedPreview.result;
  const recommendations = useMemo(
    () =>
      fields.assisted && assistedResult?.__typename === 'ProjectionPreview'
        ? assistedResult.items.filter((item) => item.origin === 'RECOMMENDED')
        : [],
    [fields.assisted, assistedResult],
  );
  // The API cannot exclude one recommendation: with any dropped, the kept ones are cited instead and
  // assistance is off, and that request is previewed too, so what is confirmed is what was shown.
  // With all kept, the assisted request itself is confirmed and its items stay RECOMMENDED.
  const draft = useMemo<ContinuationDraft>(() => {
    if (!recommendations.some((item) => dropped.has(recommendationKey(item)))) return assistedDraft;
    const kept = recommendations.filter((item) => !dropped.has(recommendationKey(item)));
    return { ...assistedDraft, selection: { kind: 'kept', sources: kept.map(recommendationAsSource) } };
  }, [assistedDraft, recommendations, dropped]);
  const keptPreview = useProjectionPreview(complete && draft !== assistedDraft ? draft : null);
  const preview = draft === assistedDraft ? assistedPreview : keptPreview;

  const learnt =
    draft.tokenBudget === undefined && !preview.pending && preview.result?.__typename === 'ProjectionPreview' ? preview.result.tokenBudget : null;
  if (learnt !== null && learnt !== defaultBudget) setDefaultBudget(learnt);

  return {
    fields,
    edit,
    /** The request as it would be confirmed now. */
    draft,
    preview,
    /** With assisted selection: its recommendations, and which of them the person dropped. */
    recommendations: fields.assisted && assistedResult?.__typename === 'ProjectionPreview' ? recommendations : null,
    dropped,
    toggleRecommendation,
    defaultBudget,
  };
}
