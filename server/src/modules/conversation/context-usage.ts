/** How much of the model's context window the session's next turn fills. */
export interface ContextUsage {
  tokens: number;
  windowTokens: number;
  /** Share of the window from which a continuation is advised. */
  threshold: number;
}

export function continuationAdvised(usage: ContextUsage): boolean {
  return usage.tokens >= usage.threshold * usage.windowTokens;
}

/**
 * Tokens a session's model context holds through one of its events, from stored running totals:
 * a successor's compiled context plus what came after its opening (banner and replayed message),
 * a fork's inherited history up to its fork point plus its own, anyone else's own transcript.
 */
export function contextTokens(parts: {
  kind: string;
  tokensThrough: number;
  projectedContextTokens: number | null;
  openingTokens: number | null;
  forkPointTokens: number | null;
}): number {
  if (parts.kind === 'CONTINUATION') return (parts.projectedContextTokens ?? 0) + parts.tokensThrough - (parts.openingTokens ?? 0);
  if (parts.kind === 'FORK') return (parts.forkPointTokens ?? 0) + parts.tokensThrough;
  return parts.tokensThrough;
}
