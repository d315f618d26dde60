import { createContext } from 'react';
import type { ContinuationInitiation } from './useContinuationFollower';

/** The page's follower: approving a proposal here follows into the successor as the agent's own continuation would. */
export const ProposalFollowContext = createContext<ContinuationInitiation | null>(null);
