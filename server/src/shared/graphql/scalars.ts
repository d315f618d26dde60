import { GraphQLDateTime, GraphQLJSON } from 'graphql-scalars';

/** The contract's `DateTime` and `JSON` scalars. */
export const DateTimeScalar = GraphQLDateTime;
export const JSONScalar = GraphQLJSON;
export const scalarsMap = [{ type: Date, scalar: DateTimeScalar }];
