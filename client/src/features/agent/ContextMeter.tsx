import { useId } from 'react';
import { formatCount } from '../../app/format';
import type { SessionAgentStateQuery } from '../../gql/graphql';

type ContextUsage = NonNullable<SessionAgentStateQuery['session']>['contextUsage'];

/**
 * How full the model's context is for the next turn (not the transcript's own size: a successor's
 * context is its projection plus its own events); past the advised share the bar changes colour.
 */
export function ContextMeter({ usage }: { usage: ContextUsage }) {
  const labelId = useId();
  const percent = Math.round(usage.share * 100);
  return (
    <div className="context-meter">
      <span id={labelId} className="hint">
        Model context: {usage.tokens.toLocaleString()} of {formatCount(usage.windowTokens, 'token')} ({percent}%)
      </span>
      <meter
        aria-labelledby={labelId}
        min={0}
        max={usage.windowTokens}
        value={usage.tokens}
        high={usage.threshold * usage.windowTokens}
        optimum={0}
      />
    </div>
  );
}

/** The server advises a continuation: say so beside the composer, without getting in the way. */
export function ContinuationHint({ onContinue }: { onContinue(): void }) {
  return (
    <p className="notice notice-info continuation-hint">
      This conversation is getting long:{' '}
      <button type="button" className="inline-action" onClick={onContinue}>
        continue in a new session
      </button>
    </p>
  );
}
