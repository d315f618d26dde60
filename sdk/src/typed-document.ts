/** A GraphQL document with the types of its result and variables. */
export interface TypedDocument<TData, TVariables> {
  readonly query: string;
  /** Never set: carries the types only. */
  readonly __types?: (variables: TVariables) => TData;
}
