import './error-code.enum';
import { Field, ObjectType } from 'type-graphql';
import { ErrorCode, OperationFailure } from '../errors';

@ObjectType({ description: 'One problem with one part of the input.' })
export class ErrorDetail {
  @Field(() => [String], { description: 'Path of the offending input, e.g. ["input", "text"].' })
  path: string[];

  @Field({ description: 'What is wrong with it.' })
  message: string;
}

@ObjectType({ description: 'Expected failures are data, not exceptions: nothing was written.' })
export class OperationError {
  @Field(() => ErrorCode, { description: 'What kind of failure this is.' })
  code: ErrorCode;

  @Field({ description: 'A message a person can act on.' })
  message: string;

  @Field(() => [ErrorDetail], { description: 'Each problem with the input, with its path; may be empty.' })
  details: ErrorDetail[];

  /** Resolved to `currentContinuation` by a field resolver. */
  currentContinuationId?: string;

  static from(failure: OperationFailure): OperationError {
    return Object.assign(new OperationError(), failure);
  }
}
