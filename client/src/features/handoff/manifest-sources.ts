import type { ManifestItemOrigin, ManifestItemRowFragment, ManifestItemStatus, SourceKind } from '../../gql/graphql';
import { eventRangeLink } from '../transcript/cited-range';

/** Where a manifest item's exact source opens: a transcript range in this app, or a resource's own address. */
export type SourceLocation = { kind: 'session'; to: string } | { kind: 'external'; href: string };

export const SOURCE_KIND_IN_WORDS: Record<SourceKind, string> = {
  SESSION_EVENTS: 'Event range',
  SESSION_EVENT: 'Event',
  RESOURCE: 'Resource',
  MEMORY: 'Memory',
  ATTACHMENT: 'Attachment',
};

/** Each status reads differently in text and shape, so none depends on colour. */
export const STATUS_PRESENTATION: Record<ManifestItemStatus, { label: string; symbol: string; meaning: string }> = {
  INCLUDED: { label: 'Included', symbol: '●', meaning: 'loaded into the successor’s starting context' },
  OMITTED: { label: 'Omitted', symbol: '○', meaning: 'linked but not loaded: it did not fit the budget' },
  UNAVAILABLE: { label: 'Unavailable', symbol: '⊘', meaning: 'no longer accessible; nothing was put in its place' },
};

/** Who chose an item, in words: `citedBy` names whoever continued (the agent, a person). */
export function originInWords(origin: ManifestItemOrigin, citedBy: string): string {
  switch (origin) {
    case 'CITED':
      return `Cited by ${citedBy}`;
    case 'RUNTIME':
      return 'Added by the runtime';
    case 'RECOMMENDED':
      return 'Recommended';
  }
}

function isWebAddress(url: string): boolean {
  try {
    const { protocol } = new URL(url);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}

/**
 * Where to open the item's exact source; null when it cannot be opened (an unavailable source,
 * a memory entry, or a resource without a web address).
 */
export function sourceLocation(item: ManifestItemRowFragment): SourceLocation | null {
  if (item.status === 'UNAVAILABLE') return null;
  switch (item.kind) {
    case 'SESSION_EVENTS':
      return item.sessionId && item.fromEventId && item.toEventId
        ? { kind: 'session', to: eventRangeLink(item.sessionId, item.fromEventId, item.toEventId) }
        : null;
    case 'SESSION_EVENT':
      return item.sessionId && item.eventId
        ? { kind: 'session', to: eventRangeLink(item.sessionId, item.eventId, item.eventId) }
        : null;
    case 'RESOURCE':
      return item.url && isWebAddress(item.url) ? { kind: 'external', href: item.url } : null;
    case 'MEMORY':
      return null;
    case 'ATTACHMENT':
      // Opened by AttachmentSource: its bytes need the key.
      return null;
  }
}
