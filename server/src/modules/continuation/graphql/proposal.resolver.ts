import { Arg, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import { ContinuationApproval } from '../../conversation/sessions';
import type { SubscribeResolverData } from 'type-graphql';
import { ContinuationReason, normalizeHandoff } from '../continuations';
import { ProposalStatus, effectiveStatus } from '../proposals';
import type { ContinuationEdgeEntity } from '../continuation-edge.entity';
import type { ContinuationProposalEntity } from '../continuation-proposal.entity';
import type { ProjectionManifestEntity } from '../projection-manifest.entity';
import type { SessionEntity } from '../../conversation/session.entity';
import type { ContinuationContext } from './continuation.context';
import { subscribedSession } from '../../conversation/graphql/conversation.context';
import { toPayload, valueOrThrow } from '../../../shared/graphql/errors';
import type { PublishedProposal } from '../continuation.topics';
import { ContinuationEdge, ContinueSessionResult, ContinueSessionSuccess, Handoff, ProjectionManifest, ProjectionPreview } from './continuation.type';
import { Session } from '../../conversation/graphql/session.type';
import { ApproveContinuationInput } from './proposal.input';
import { ContinuationProposal } from './proposal.type';

async function subscribeToProposals({ args, context }: SubscribeResolverData<unknown, { sessionId: string }, ContinuationContext>) {
  const session = await subscribedSession(context, args.sessionId);
  return context.pubSub.subscribe('CONTINUATION_PROPOSAL', session.id);
}

async function required<T>(value: Promise<T | null>, what: string): Promise<T> {
  const found = await value;
  if (found === null) throw new Error(`${what} is missing`);
  return found;
}

@Resolver(() => ContinuationProposal)
export class ProposalResolver {
  @Query(() => ContinuationProposal, { nullable: true, description: "One of the viewer's continuation proposals; null when there is none with this id." })
  continuationProposal(@Arg('id', () => ID, { description: "The proposal's id; an id that is no UUID finds nothing." }) id: string, @Ctx() ctx: ContinuationContext): Promise<ContinuationProposalEntity | null> {
    return ctx.loaders.proposalById.load(id);
  }

  @Mutation(() => Session, {
    description: "Sets whether the session's agent continues at once (AUTOMATIC) or asks first (ASK); a pending proposal stays pending. NOT_FOUND for another account's session.",
  })
  async setContinuationApproval(
    @Arg('sessionId', () => ID, { description: 'The session.' }) sessionId: string,
    @Arg('approval', () => ContinuationApproval, { description: 'The new mode.' }) approval: ContinuationApproval,
    @Ctx() ctx: ContinuationContext,
  ): Promise<SessionEntity> {
    return valueOrThrow(await ctx.services.proposals.setApproval(ctx.viewer, sessionId, approval));
  }

  @Mutation(() => ContinueSessionResult, {
    description:
      'Creates the continuation a proposal describes, with a person\'s edits; the actor is USER. Checked against the session as it is now, as continueSession checks; approving again returns the same successor (replayed). A rejected or expired proposal is INVALID_INPUT, another account\'s NOT_FOUND.',
  })
  async approveContinuation(@Arg('input', { description: 'The proposal and the edits.' }) input: ApproveContinuationInput, @Ctx() ctx: ContinuationContext): Promise<typeof ContinueSessionResult> {
    return toPayload(await ctx.services.proposals.approve(ctx.viewer, input), (result) => ContinueSessionSuccess.of(result));
  }

  @Mutation(() => ContinuationProposal, {
    description:
      'Rejects a pending proposal: the session stays where it is and the agent answers there, told the note. A decided or expired proposal is INVALID_INPUT, another account\'s NOT_FOUND.',
  })
  async rejectContinuation(
    @Arg('proposalId', () => ID, { description: 'The proposal (PENDING and not past expiresAt).' }) proposalId: string,
    @Ctx() ctx: ContinuationContext,
    @Arg('note', () => String, { nullable: true, description: 'What the person wants instead, for the agent; at most 2,000 characters.' }) note?: string | null,
  ): Promise<ContinuationProposalEntity> {
    return valueOrThrow(await ctx.services.proposals.reject(ctx.viewer, proposalId, note ?? null));
  }

  @Subscription(() => ContinuationProposal, {
    description: "Proposals of the session (ASK): when made, and when decided or expired. NOT_FOUND for another account's session.",
    subscribe: subscribeToProposals,
  })
  async continuationProposals(
    @Root() published: PublishedProposal,
    @Ctx() ctx: ContinuationContext,
    @Arg('sessionId', () => ID, { description: 'The session whose proposals to watch.' }) _sessionId: string,
  ): Promise<ContinuationProposalEntity> {
    ctx.refreshLoaders();
    return required(ctx.loaders.proposalById.load(published.id), 'proposal');
  }

  @FieldResolver(() => Session, { description: 'The session the agent proposed to continue.' })
  session(@Root() proposal: ContinuationProposalEntity, @Ctx() ctx: ContinuationContext): Promise<SessionEntity> {
    return required(ctx.loaders.sessionById.load(proposal.sessionId), 'session');
  }

  @FieldResolver(() => ProposalStatus, { description: 'PENDING until decided; a proposal past expiresAt is EXPIRED.' })
  status(@Root() proposal: ContinuationProposalEntity): ProposalStatus {
    return effectiveStatus(proposal, new Date());
  }

  @FieldResolver(() => ContinuationReason, { description: 'Why the agent would continue.' })
  reason(@Root() proposal: ContinuationProposalEntity): ContinuationReason {
    return proposal.draft.reason;
  }

  @FieldResolver(() => String, { description: "The successor's title as the agent proposed it." })
  title(@Root() proposal: ContinuationProposalEntity): string {
    return proposal.draft.title;
  }

  @FieldResolver(() => Handoff, { description: 'The handoff as the agent drafted it.' })
  handoff(@Root() proposal: ContinuationProposalEntity): Handoff {
    return normalizeHandoff(proposal.draft.handoff);
  }

  @FieldResolver(() => ProjectionPreview, {
    description:
      'What approving the draft unedited would carry, omit and find unavailable, and its cost against the budget, compiled now. A failure (a cited plan closed since, say) is a GraphQL error with its code.',
  })
  async preview(@Root() proposal: ContinuationProposalEntity, @Ctx() ctx: ContinuationContext): Promise<ProjectionPreview> {
    const { sections, items, tokenBudget, tokenCost } = valueOrThrow(await ctx.services.proposals.preview(ctx.viewer, proposal));
    return ProjectionPreview.of({ context: { sections, tokenCount: tokenCost }, items, tokenBudget, tokenCost });
  }

  @FieldResolver(() => ContinuationEdge, { nullable: true, description: 'The continuation it became, once APPROVED.' })
  edge(@Root() proposal: ContinuationProposalEntity, @Ctx() ctx: ContinuationContext): Promise<ContinuationEdgeEntity | null> | null {
    return proposal.edgeId ? ctx.loaders.edgeById.load(proposal.edgeId) : null;
  }
}

@Resolver(() => Session)
export class SessionProposalResolver {
  @FieldResolver(() => ContinuationProposal, {
    nullable: true,
    description: "The agent's continuation waiting for a person's decision, if any (ASK sessions): PENDING and not past its time.",
  })
  pendingProposal(@Root() session: SessionEntity, @Ctx() ctx: ContinuationContext): Promise<ContinuationProposalEntity | null> {
    return ctx.loaders.pendingProposalBySessionId.load(session.id);
  }
}

@Resolver(() => ProjectionManifest)
export class ManifestProposalResolver {
  @FieldResolver(() => ContinuationProposal, {
    nullable: true,
    description: "For a continuation a person approved from an agent's proposal: that proposal, whose title and handoff are the agent's draft beside this manifest's edited handoff.",
  })
  proposal(@Root() manifest: ProjectionManifestEntity, @Ctx() ctx: ContinuationContext): Promise<ContinuationProposalEntity | null> | null {
    return manifest.proposal ? ctx.loaders.proposalById.load(manifest.proposal.proposalId) : null;
  }
}
