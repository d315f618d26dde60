import type { AttachmentReference } from '../../attachments/attachments';
import { canonicalJson } from '../../../shared/canonical-json';
import { CountedText, countJoinedTokens, countTokens } from '../../../shared/tokens';
import { renderPlan } from '../../plans/plans';
import { Handoff, SourceKind, TransferredState } from '../continuations';
import { CompiledSection, ContextSectionKind, ManifestItem, ManifestItemStatus, ProjectedEvent, ProjectionRequest } from './model';

export const SECTION_SEPARATOR = '\n\n';
/** Sections whose text repeats from one continuation to the next: control, an account's identity, a state carrying nothing. */
export const RECURRING_SECTIONS = new Set<ContextSectionKind>([ContextSectionKind.SYSTEM, ContextSectionKind.IDENTITY, ContextSectionKind.STATE]);

export const SYSTEM_TEXT = [
  'You are continuing work that began in an earlier session. That session is complete and unchanged;',
  'this context is a projection of it, not its history. The lineage block is written by the runtime and',
  'is authoritative; the handoff was written by the agent and is orientation, not a record. When the',
  'handoff and an exact source disagree, the source wins. Sources listed as omitted were left out only for',
  'the token budget: recall them exactly (read_events, read_manifest, walk_lineage) instead of guessing.',
  'Answer the initiating message here.',
].join(' ');

export function renderEvent(event: ProjectedEvent): string {
  const payload = event.data == null ? '' : ` ${canonicalJson(event.data)}`;
  const attached = event.attachmentCids?.length ? ` [attachments: ${event.attachmentCids.join(', ')}]` : '';
  return `[event ${event.id} seq ${event.seq} ${event.kind}]${event.text == null ? '' : ` ${event.text}`}${payload}${attached}`;
}

/**
 * An event's line with its tokens. A message's text keeps the count stored with it: only the
 * header is counted, and the seam between them (see `countJoinedTokens`), so a long message costs
 * no more than a short one. Events with a payload or attachments are counted whole.
 */
export function countedEvent(event: ProjectedEvent): CountedText {
  const line = renderEvent(event);
  if (event.text == null || event.data != null || event.attachmentCids?.length) return { text: line, tokens: countTokens(line) };
  const header = line.slice(0, line.length - event.text.length - 1);
  return { text: line, tokens: countJoinedTokens([{ text: header, tokens: countTokens(header) }, { text: event.text, tokens: event.tokenCount }], ' ') };
}

const quoted = (text: string) => text.replace(/"/g, "'");

/** An attachment as a context shows it: a reference, with the content of a text attachment when given. */
export function renderAttachment(reference: AttachmentReference, relevance: string | null, excerpt: string | null): string {
  const open =
    `<attachment cid="${reference.cid}" name="${quoted(reference.name)}" type="${reference.mediaType}" bytes="${reference.byteSize}"` +
    (relevance === null ? '' : ` relevance="${quoted(relevance)}"`);
  return excerpt === null ? `${open} />` : `${open}>\n${excerpt}\n</attachment>`;
}

/** The initiating message exactly, and a reference to each attachment it links (their bytes are never pasted). */
export function renderInitiating(event: ProjectedEvent, attachments: AttachmentReference[]): string {
  if (attachments.length === 0) return renderEvent(event);
  const line = renderEvent({ ...event, attachmentCids: [] });
  return [line, ...attachments.map((attachment) => renderAttachment(attachment, null, null))].join('\n');
}

export function renderIdentity(identity: ProjectionRequest['identity']): string {
  return [
    `account: ${identity.accountName} (${identity.accountId})`,
    `grants: ${identity.grants.join('; ')}`,
    `tools: ${identity.tools.join(', ')}`,
  ].join('\n');
}

export function renderState(state: TransferredState, carriedPlan: ProjectionRequest['carriedPlan']): string {
  const pins = state.pinnedResources.map((ref) => `${ref.url}@${ref.version ?? 'latest'}${ref.blockId ? `#${ref.blockId}` : ''}`);
  return [
    carriedPlan
      ? `plan: CARRY from predecessor ${renderPlan(carriedPlan.revision, carriedPlan.closed, carriedPlan.steps)}`
      : `plan: ${state.plan}${state.planRevision == null ? '' : ` (revision ${state.planRevision})`}`,
    `pending runs: ${state.pendingRunIds.length ? state.pendingRunIds.join(', ') : 'none'}`,
    `pinned tools: ${state.pinnedTools.length ? state.pinnedTools.join(', ') : 'none'}`,
    `pinned resources: ${pins.length ? pins.join(', ') : 'none'}`,
  ].join('\n');
}

/** The handoff as the successor reads it. */
export function renderHandoff(handoff: Handoff): string {
  const list = (title: string, items: string[]) => (items.length ? [`${title}:`, ...items.map((item) => `- ${item}`)] : []);
  return [
    `Purpose: ${handoff.purpose}`,
    `Current request: ${handoff.currentRequest}`,
    ...list('Established facts', handoff.establishedFacts),
    ...list('Decisions', handoff.decisions),
    ...list('Open questions', handoff.openQuestions),
    ...list('Next actions', handoff.nextActions),
    ...list('Cautions', handoff.cautions),
  ].join('\n');
}

export function handleLine(item: ManifestItem): string {
  const where: Record<SourceKind, string> = {
    SESSION_EVENT: `session ${item.sessionId} event ${item.eventId}, ${item.tokenCount} tokens (read_events)`,
    SESSION_EVENTS: `session ${item.sessionId} events ${item.fromEventId}..${item.toEventId}, ${item.tokenCount} tokens (read_events)`,
    RESOURCE: `resource ${item.url} version ${item.version ?? 'unknown'}${item.blockId ? ` block ${item.blockId}` : ''}, ${item.tokenCount} tokens (read_resource)`,
    MEMORY: `memory ${item.path} cid ${item.cid}, ${item.tokenCount} tokens (read_memory)`,
    ATTACHMENT: `attachment cid ${item.cid} (read_attachment)`,
  };
  const line = `- ${where[item.kind]}: ${item.relevance}`;
  return item.status === ManifestItemStatus.UNAVAILABLE ? `- unavailable (revoked, not substituted): ${line.slice(2)}` : line;
}

export function renderContent(item: ManifestItem, text: string): string {
  const relevance = item.relevance.replace(/"/g, "'");
  const open =
    item.kind === SourceKind.MEMORY
      ? `<memory path="${item.path}" cid="${item.cid}" relevance="${relevance}">`
      : `<resource url="${item.url}" version="${item.version}"${item.blockId ? ` block="${item.blockId}"` : ''} relevance="${relevance}">`;
  return `${open}\n${text}\n</${item.kind === SourceKind.MEMORY ? 'memory' : 'resource'}>`;
}

/** A section of one line or more, each counted before. */
export function section(kind: ContextSectionKind, lines: CountedText[]): CompiledSection {
  return { kind, text: lines.map((line) => line.text).join('\n'), tokenCount: countJoinedTokens(lines, '\n') };
}
