import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { PlanStepStatus } from './plans';

@ObjectType({ description: 'One step of a plan; its id survives revisions and continuations.' })
export class PlanStep {
  @Field(() => ID, { description: 'Stable across revisions and continuations; PlanStepInput.id keeps it.' })
  id: string;

  @Field({ description: 'What the step is; 1 to 500 characters.' })
  title: string;

  @Field(() => PlanStepStatus, { description: 'How far the step has come.' })
  status: PlanStepStatus;
}

@ObjectType({ description: "A session's plan at its newest revision. Revisions are never rewritten." })
export class Plan {
  @Field(() => Int, { description: '1 for the first revision, one more for each update.' })
  revision: number;

  @Field({ description: 'True once the plan was closed (by an update, or by a continuation that closed it).' })
  closed: boolean;

  @Field(() => [PlanStep], { description: "The plan's steps, in order." })
  steps: PlanStep[];
}

@InputType({ description: "One step of the plan's next revision." })
export class PlanStepInput {
  @Field(() => ID, { nullable: true, description: 'Keep an existing step by its id; absent: a new step with a new id.' })
  id?: string | null;

  @Field({ description: '1 to 500 characters.' })
  title: string;

  @Field(() => PlanStepStatus, { description: 'How far the step has come.' })
  status: PlanStepStatus;
}

@InputType({ description: 'The whole plan as it should be at the next revision (at most 200 steps).' })
export class UpdatePlanInput {
  @Field(() => ID, { description: "The session whose plan it is (NOT_FOUND for another account's, SESSION_CONTINUED for a continued one)." })
  sessionId: string;

  @Field(() => Int, { nullable: true, description: 'Refuse the update unless the plan is still at this revision (0: no plan yet).' })
  expectedRevision?: number | null;

  @Field(() => [PlanStepInput], { description: 'Every step of the new revision, in order; steps left out are gone from it.' })
  steps: PlanStepInput[];

  @Field(() => Boolean, { nullable: true, description: 'Close the plan (default false).' })
  closed?: boolean | null;
}
