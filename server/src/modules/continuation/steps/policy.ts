import { DEFAULT_TOKEN_BUDGET } from '../projection/model';

/** Limits against pathological transitions; docs/configuration.md documents them and their variables. */
export interface ContinuationPolicy {
  /** Continuations in a row along one lineage with no new user message between them. */
  streakLimit: number;
  /** Continuations per account per minute. */
  perAccountPerMinute: number;
  defaultTokenBudget: number;
}

export const DEFAULT_CONTINUATION_POLICY: ContinuationPolicy = {
  streakLimit: 3,
  perAccountPerMinute: 600,
  defaultTokenBudget: DEFAULT_TOKEN_BUDGET,
};
