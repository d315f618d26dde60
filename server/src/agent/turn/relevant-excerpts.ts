import { EntityManager } from 'typeorm';
import { purposeQuery } from '../../modules/continuation/assisted/recommendations';
import { EventEntity } from '../../modules/conversation/event.entity';
import { SearchScope } from '../../modules/search/search';
import { searchEvents } from '../../modules/search/search.repository';
import type { ModelMessage } from '../agent';
import { OmittedRange, messageTokens } from './context-budget';

/** Hits read per omitted range: more than a share of a window ever holds. */
const EXCERPT_CANDIDATES = 20;

/**
 * Excerpts of the history a turn leaves out that bear on the message it answers: the omitted
 * ranges searched for the message's words with the search module's ranking (as assisted
 * selection queries a purpose), the best hits taken while the message holding them stays within
 * `allowance`, each event once, shown in seq order and marked with their seq ranges. Null when
 * nothing matches or fits.
 */
export async function relevantExcerpts(
  manager: EntityManager,
  input: { accountId: string; omitted: OmittedRange[]; message: string; allowance: number },
): Promise<{ message: ModelMessage; events: EventEntity[] } | null> {
  const { query, words } = purposeQuery(input.message);
  if (words.length === 0 || input.omitted.length === 0) return null;
  const scoredAt = new Date();
  const pages = await Promise.all(
    input.omitted.map(async (range) => {
      const page = await searchEvents(manager, {
        accountId: input.accountId,
        area: { scope: SearchScope.SESSION, sessionId: range.sessionId },
        query,
        scoredAt,
        after: null,
        first: EXCERPT_CANDIDATES,
        excludeFrom: { sessionId: range.sessionId, seq: range.toSeq + 1 },
      });
      return page.hits.filter((hit) => hit.event.seq >= range.fromSeq && hit.event.seq <= range.toSeq);
    }),
  );
  const ranked = pages.flat().sort((a, b) => b.score - a.score);
  const chosen = new Map<string, EventEntity>();
  let message: ModelMessage | null = null;
  for (const { event } of ranked) {
    if (chosen.has(event.id)) continue;
    const candidate = excerptMessage([...chosen.values(), event]);
    if (messageTokens(candidate) > input.allowance) continue;
    chosen.set(event.id, event);
    message = candidate;
  }
  return message ? { message, events: [...chosen.values()] } : null;
}

/** The excerpts as one message: runs of consecutive events under their session and seq range. */
function excerptMessage(events: EventEntity[]): ModelMessage {
  const ordered = [...events].sort((a, b) => a.sessionId.localeCompare(b.sessionId) || a.seq - b.seq);
  const groups: EventEntity[][] = [];
  for (const event of ordered) {
    const last = groups[groups.length - 1]?.at(-1);
    if (last && last.sessionId === event.sessionId && last.seq + 1 === event.seq) groups[groups.length - 1].push(event);
    else groups.push([event]);
  }
  const lines = groups.map((group) => {
    const head = `[session ${group[0].sessionId}, events ${group[0].seq}-${group[group.length - 1].seq}]`;
    return [head, ...group.map((event) => `${event.kind.toLowerCase()} (seq ${event.seq}): ${event.text ?? ''}`)].join('\n');
  });
  return {
    role: 'system',
    content: [
      'Excerpts of the history that is not loaded, found relevant to the latest message by search (quoted exactly, not summarised; read the ranges around them with read_events when more is needed):',
      ...lines,
    ].join('\n\n'),
  };
}
