import { registerEnumType } from 'type-graphql';
import { PlanStepStatus } from './plans';

registerEnumType(PlanStepStatus, {
  name: 'PlanStepStatus',
  description: 'How far a plan step has come.',
  valuesConfig: {
    PENDING: { description: 'Not started.' },
    IN_PROGRESS: { description: 'Being worked on.' },
    DONE: { description: 'Finished.' },
    CANCELLED: { description: 'Dropped without being finished.' },
  },
});
