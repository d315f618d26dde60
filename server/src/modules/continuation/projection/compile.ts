import { ErrorCode, Outcome, fail, succeed } from '../../../shared/errors';
import { CountedText, countJoinedTokens, countRecurringTokens, countTokens } from '../../../shared/tokens';
import { SourceKind } from '../continuations';
import { Candidate, Placement, collectCandidates, counted, placementCost } from './candidates';
import { attachmentItem, eventItem } from './manifest';
import {
  ASSISTED_CITED_SHARE,
  CompiledSection,
  ContextSectionKind,
  FIXED_SECTIONS,
  FixedSectionKind,
  INITIATING_ATTACHMENT_RELEVANCE,
  INITIATING_RELEVANCE,
  ManifestItem,
  ManifestItemOrigin,
  ManifestItemStatus,
  OPTIONAL_SECTIONS,
  Projection,
  ProjectionRequest,
  ProjectionSourceReader,
} from './model';
import { RECURRING_SECTIONS, SECTION_SEPARATOR, SYSTEM_TEXT, countedEvent, renderIdentity, renderInitiating, renderState, section } from './render';

/**
 * Compiles the successor's initial context within `tokenBudget`, in the specification's order:
 * control, identity, state, lineage and the initiating message (never dropped), then the handoff,
 * pinned sources, the recent exchange and the cited excerpts while they fit, then one handle per
 * source (or part of a range) left out. An event is shown once: a later range names the section
 * that shows it instead. A range that does not fit whole keeps its end, the events nearest the
 * initiating message, and leaves out its start as an item of its own.
 * Reads only what may fit, so its cost follows the budget, not the history.
 * Fails with INVALID_INPUT when the never-dropped sections alone exceed the budget.
 */
export async function compileProjection(
  request: ProjectionRequest,
  reader: ProjectionSourceReader,
): Promise<Outcome<Projection>> {
  const initiating = request.initiatingEvent;
  const fixed = fixedSections(request);
  const separatorTokens = countTokens(SECTION_SEPARATOR);
  const summary = counted(`- more omitted sources: read_manifest ${request.manifestId}`);

  const candidates = await collectCandidates(request, reader);
  const fixedTokens = fixed.reduce((sum, section) => sum + section.tokenCount + separatorTokens, 0);
  const minimum = fixedTokens + (candidates.length ? summary.tokens + separatorTokens : 0);
  if (minimum > request.tokenBudget) {
    const advised = minimum + (request.minimumAllowance ?? 0);
    const tooSmall = fail<Projection>(
      ErrorCode.INVALID_INPUT,
      `tokenBudget ${request.tokenBudget} is below the ${advised} tokens this continuation needs at least (control, identity, state, lineage and the initiating message).`,
      [{ path: ['input', 'tokenBudget'], message: `Must be at least ${advised}.` }],
    );
    if (!tooSmall.ok) tooSmall.error.leastTokenBudget = advised;
    return tooSmall;
  }

  const placed = new Map<Candidate, Placement>();
  const handles = new Map<Candidate, CountedText>();
  // A handle is counted only when it matters: when it is listed, or when the budget is too tight for its bound.
  const handleOf = (candidate: Candidate): CountedText => {
    let handle = handles.get(candidate);
    if (!handle) {
      handle = counted(candidate.handle);
      handles.set(candidate, handle);
    }
    return handle;
  };
  const assemble = () => assembleContext(fixed, candidates, placed, handleOf, summary, request.tokenBudget - fixedTokens);
  let remaining = request.tokenBudget - minimum;
  // Room is kept for the handle (and its line break) of every candidate still to decide. A token
  // is at least a byte, so a handle's UTF-8 length bounds its count: a candidate that fits with
  // every later handle at its bound fits with their exact counts too, which are taken otherwise.
  // A recommendation left out is not listed, so it needs no room.
  const handleBounds = candidates.map((candidate) => (candidate.recommended ? 0 : Buffer.byteLength(candidate.handle, 'utf8') + 1));
  let boundsAfter = handleBounds.reduce((sum, bound) => sum + bound, 0);
  const fitsWithLaterHandles = (tokens: number, index: number) =>
    tokens <= remaining - boundsAfter ||
    tokens <=
      remaining -
        candidates.slice(index + 1).reduce((sum, later) => (later.recommended ? sum : sum + handleOf(later).tokens + 1), 0);
  const shown = new Map<string, string>([[initiating.id, 'the initiating message']]);
  // With recommendations, one cited excerpt may not take the whole budget: a longer one keeps the
  // end that fits its share, and the recommendations fill what is left.
  const citedShare = candidates.some((candidate) => candidate.recommended)
    ? Math.floor(ASSISTED_CITED_SHARE * (request.tokenBudget - minimum))
    : Infinity;
  for (const [index, candidate] of candidates.entries()) {
    boundsAfter -= handleBounds[index];
    const share = candidate.section === ContextSectionKind.EXCERPT && !candidate.recommended ? citedShare : Infinity;
    const placement = candidate.place((tokens) => tokens <= share && fitsWithLaterHandles(tokens, index), shown);
    if (!placement || (candidate.recommended && !placement.shows?.ids.length)) continue;
    placed.set(candidate, placement);
    remaining -= placementCost(placement);
    const shows = placement.shows;
    if (shows) for (const id of shows.ids) shown.set(id, shows.where);
  }

  // Joining texts can merge tokens at the seams; verify the real count and shed from the end, which
  // no earlier section refers to.
  const contextTokens = (compiled: CompiledSection[]) =>
    countJoinedTokens(compiled.map((section) => ({ text: section.text, tokens: section.tokenCount })), SECTION_SEPARATOR);
  let sections = assemble();
  let tokenCost = contextTokens(sections);
  while (tokenCost > request.tokenBudget && placed.size > 0) {
    placed.delete([...placed.keys()].pop() as Candidate);
    sections = assemble();
    tokenCost = contextTokens(sections);
  }

  const itemsOf = (candidate: Candidate) =>
    placed.get(candidate)?.items ?? (candidate.omitted && !candidate.recommended ? [candidate.omitted] : []);
  const items: ManifestItem[] = [
    eventItem(SourceKind.SESSION_EVENT, INITIATING_RELEVANCE, initiating, initiating, ManifestItemStatus.INCLUDED, ManifestItemOrigin.RUNTIME),
    // Shown with the initiating message, so never dropped: their tokens are that section's.
    ...(request.initiatingAttachments ?? []).map((attachment) => ({
      ...attachmentItem(INITIATING_ATTACHMENT_RELEVANCE, attachment.cid, ManifestItemOrigin.RUNTIME),
      status: ManifestItemStatus.INCLUDED,
    })),
    ...candidates.flatMap(itemsOf),
  ];
  const runtimeAndCited = candidates.filter((candidate) => !candidate.recommended);
  const citedItems = runtimeAndCited.slice(runtimeAndCited.length - request.sources.length).map(itemsOf);
  return succeed({ sections, items, citedItems, tokenCost });
}

/** The compiled sections in the specification's order, with the handles of what was left out last (or one line naming the manifest, when they do not fit). */
function assembleContext(
  fixed: CompiledSection[],
  candidates: Candidate[],
  placed: Map<Candidate, Placement>,
  handleOf: (candidate: Candidate) => CountedText,
  summaryHandle: CountedText,
  optionalBudget: number,
): CompiledSection[] {
  const texts = new Map<ContextSectionKind, CountedText[]>();
  const omittedHandles: CountedText[] = [];
  for (const candidate of candidates) {
    const placement = placed.get(candidate);
    if (placement === undefined) {
      if (!candidate.recommended) omittedHandles.push(handleOf(candidate));
    } else {
      texts.set(candidate.section, [...(texts.get(candidate.section) ?? []), placement.text]);
      omittedHandles.push(...placement.handles);
    }
  }
  const sections = [...fixed];
  for (const kind of OPTIONAL_SECTIONS) {
    const parts = texts.get(kind);
    if (parts) sections.push(section(kind, parts));
  }
  if (omittedHandles.length) {
    const used = sections.slice(fixed.length).reduce((sum, s) => sum + s.tokenCount + 1, 0);
    const listed = section(ContextSectionKind.OMITTED_HANDLES, omittedHandles);
    sections.push(used + listed.tokenCount <= optionalBudget ? listed : section(ContextSectionKind.OMITTED_HANDLES, [summaryHandle]));
  }
  return sections;
}

/** The sections never dropped, each with its tokens: recurring texts remembered, the initiating message from its stored count. */
function fixedSections(request: ProjectionRequest): CompiledSection[] {
  const initiating = request.initiatingEvent;
  const fixedText: Record<FixedSectionKind, string> = {
    SYSTEM: SYSTEM_TEXT,
    IDENTITY: renderIdentity(request.identity),
    STATE: renderState(request.transferred, request.carriedPlan),
    LINEAGE: request.lineageBlock,
    INITIATING_MESSAGE: renderInitiating(initiating, request.initiatingAttachments ?? []),
  };
  // The initiating message alone is its event's line, whose text keeps its stored count.
  const initiatingTokens = request.initiatingAttachments?.length ? null : countedEvent(initiating).tokens;
  return FIXED_SECTIONS.map((kind) => ({
    kind,
    text: fixedText[kind],
    tokenCount: RECURRING_SECTIONS.has(kind)
      ? countRecurringTokens(fixedText[kind])
      : kind === ContextSectionKind.INITIATING_MESSAGE && initiatingTokens !== null
        ? initiatingTokens
        : countTokens(fixedText[kind]),
  }));
}
