import { Link } from 'react-router';
import { formatCount } from '../../app/format';
import { graphql } from '../../gql';
import type { ManifestItemRowFragment } from '../../gql/graphql';
import { SOURCE_KIND_IN_WORDS, STATUS_PRESENTATION, originInWords, sourceLocation } from './manifest-sources';
import { AttachmentSource } from '../attachments/AttachmentSource';
import './handoff.css';

export const ManifestItemRowFragmentDocument = graphql(`
  fragment ManifestItemRow on ManifestItem {
    kind
    status
    origin
    score
    relevance
    sessionId
    fromEventId
    toEventId
    eventId
    url
    version
    blockId
    path
    cid
    tokenCount
    hash
  }
`);

interface ManifestItemListProps {
  items: ManifestItemRowFragment[];
  /** Names the sessions the items come from, in words. */
  sessionNames: Record<string, string>;
  /** Who named the cited sources, e.g. "the agent". */
  citedBy: string;
}

/** Every source the manifest names, in priority order, with what became of it. */
export function ManifestItemList({ items, sessionNames, citedBy }: ManifestItemListProps) {
  if (items.length === 0) return <p className="empty-state">This manifest names no sources.</p>;
  const count = (status: ManifestItemRowFragment['status']) => items.filter((item) => item.status === status).length;
  return (
    <>
      <p className="hint">
        {formatCount(items.length, 'source')}: {count('INCLUDED')} included, {count('OMITTED')} omitted
        {count('UNAVAILABLE') > 0 && `, ${count('UNAVAILABLE')} unavailable`}
      </p>
      <ol className="manifest-items">
        {items.map((item, index) => (
          <li key={`${index}:${item.hash ?? item.relevance}`}>
            <ManifestItemCard item={item} sessionNames={sessionNames} citedBy={citedBy} />
          </li>
        ))}
      </ol>
    </>
  );
}

type ManifestItemCardProps = { item: ManifestItemRowFragment } & Omit<ManifestItemListProps, 'items'>;

function ManifestItemCard({ item, sessionNames, citedBy }: ManifestItemCardProps) {
  const status = STATUS_PRESENTATION[item.status];
  const location = sourceLocation(item);
  return (
    <article className={`manifest-item manifest-item-${item.status.toLowerCase()}`}>
      <header className="manifest-item-header">
        <span className={`status status-${item.status.toLowerCase()}`} title={status.meaning}>
          <span aria-hidden="true">{status.symbol}</span> {status.label}
        </span>
        <span className="manifest-item-kind">{SOURCE_KIND_IN_WORDS[item.kind]}</span>
        <span>{formatCount(item.tokenCount, 'token')}</span>
        <span className={`origin origin-${item.origin.toLowerCase()}`}>{originInWords(item.origin, citedBy)}</span>
        {item.origin === 'RECOMMENDED' && typeof item.score === 'number' && (
          <span title="Assisted selection's relevance score; higher is better">score {item.score.toFixed(2)}</span>
        )}
      </header>
      <p className="manifest-item-relevance prose">{item.relevance}</p>
      <p className="hint">
        {status.meaning}
        {item.sessionId && ` · from ${sessionNames[item.sessionId] ?? `session ${item.sessionId}`}`}
      </p>
      <SourceAddress item={item} />
      {item.kind === 'ATTACHMENT' && item.cid && item.status !== 'UNAVAILABLE' && <AttachmentSource cid={item.cid} />}
      {location?.kind === 'session' && (
        <Link to={location.to} className="manifest-item-open" aria-label={`Open source: ${item.relevance}`}>
          Open source
        </Link>
      )}
      {location?.kind === 'external' && (
        <a
          href={location.href}
          className="manifest-item-open"
          target="_blank"
          rel="noreferrer"
          aria-label={`Open source: ${item.relevance} (opens in a new tab)`}
        >
          Open source ↗
        </a>
      )}
    </article>
  );
}

/** The exact identity the manifest pinned: versions, block ids and hashes, never "the latest". */
function SourceAddress({ item }: { item: ManifestItemRowFragment }) {
  const parts: [string, string][] = [];
  if (item.url) parts.push(['URL', item.url]);
  if (item.version) parts.push(['version', item.version]);
  if (item.blockId) parts.push(['block', item.blockId]);
  if (item.path) parts.push(['path', item.path]);
  if (item.cid) parts.push(['CID', item.cid]);
  if (item.hash) parts.push(['hash', item.hash]);
  if (parts.length === 0) return null;
  return (
    <dl className="source-address">
      {parts.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>
            <code>{value}</code>
          </dd>
        </div>
      ))}
    </dl>
  );
}
