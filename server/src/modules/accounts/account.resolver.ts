import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { AccountsContext } from './accounts.context';
import { valueOrThrow } from '../../shared/graphql/errors';
import { Account, AccountWithKey } from './account.type';

@Resolver()
export class AccountResolver {
  @Query(() => Account, { description: 'The account of the API key in use.' })
  viewer(@Ctx() ctx: AccountsContext): Account {
    return { id: ctx.viewer.accountId, name: ctx.viewer.name };
  }

  @Mutation(() => AccountWithKey, { description: 'Admin only (the bootstrap key): a new account and its API key.' })
  async createAccount(
    @Arg('name', { description: 'Display name, 1 to 100 characters.' }) name: string,
    @Ctx() ctx: AccountsContext,
  ): Promise<AccountWithKey> {
    const { account, apiKey } = valueOrThrow(await ctx.services.accounts.createAccount(ctx.viewer, name));
    return { account: { id: account.id, name: account.name }, apiKey };
  }
}
