import { Arg, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { MemoryEntryEntity } from './memory-entry.entity';
import type { ResourceEntity } from './resource.entity';
import type { ResourceVersionEntity } from './resource-version.entity';
import type { ResourcesContext } from './resources.context';
import { valueOrThrow } from '../../shared/graphql/errors';
import { PutResourceInput, WriteMemoryInput } from './resource.input';
import { MemoryEntry, Resource, ResourceVersion } from './resource.type';

const RECALL_FOR =
  "A manifest of the reader's lineage: counts this read as a recall of the item it left out with exactly this reference.";

@Resolver(() => Resource)
export class ResourceResolver {
  @Query(() => Resource, {
    nullable: true,
    description: "The caller's resource at this url, revoked or not; null when there is none.",
  })
  resource(@Arg('url', { description: 'The resource url.' }) url: string, @Ctx() ctx: ResourcesContext): Promise<ResourceEntity | null> {
    return ctx.services.resources.findResource(ctx.viewer, url);
  }

  @Query(() => ResourceVersion, {
    nullable: true,
    description: 'One exact version of a resource; null when the resource or version does not exist or the resource is revoked.',
  })
  async resourceVersion(
    @Arg('url', { description: 'The resource url.' }) url: string,
    @Arg('version', { description: 'A version as the server assigned it: "1", "2", ...' }) version: string,
    @Ctx() ctx: ResourcesContext,
    @Arg('recallFor', () => ID, { nullable: true, description: RECALL_FOR }) recallFor?: string,
  ): Promise<ResourceVersionEntity | null> {
    const found = await ctx.services.resources.findResourceVersion(ctx.viewer, url, version);
    if (found && recallFor != null) {
      valueOrThrow(await ctx.services.recalls.recordRecall(ctx.viewer, recallFor, { kind: 'RESOURCE', url, version }));
    }
    return found;
  }

  @Mutation(() => ResourceVersion, {
    description:
      "Stores the blocks as the resource's next immutable version (creating the resource). When the latest version has exactly these blocks, returns it and stores nothing. A revoked url takes no new versions (INVALID_INPUT).",
  })
  async putResource(@Arg('input', { description: 'The url and the blocks of the new version.' }) input: PutResourceInput, @Ctx() ctx: ResourcesContext): Promise<ResourceVersionEntity> {
    return valueOrThrow(await ctx.services.resources.putResource(ctx.viewer, input));
  }

  @Mutation(() => Resource, {
    description:
      'Revokes a resource: its versions stay stored but are no longer readable, and continuations citing it show an unavailable breadcrumb. NOT_FOUND for an unknown url.',
  })
  async revokeResource(
    @Arg('url', { description: 'The resource url.' }) url: string,
    @Ctx() ctx: ResourcesContext,
  ): Promise<ResourceEntity> {
    return valueOrThrow(await ctx.services.resources.revokeResource(ctx.viewer, url));
  }

  @FieldResolver(() => Boolean, { description: 'True once the resource is revoked: its versions are no longer readable.' })
  revoked(@Root() resource: ResourceEntity): boolean {
    return resource.revokedAt !== null;
  }

  @FieldResolver(() => ResourceVersion, { nullable: true, description: 'The newest version; null once revoked.' })
  latest(@Root() resource: ResourceEntity, @Ctx() ctx: ResourcesContext): Promise<ResourceVersionEntity | null> {
    return ctx.services.resources.latestVersion(resource);
  }

  @FieldResolver(() => [ResourceVersion], { description: 'Every version, oldest first; empty once revoked.' })
  versions(@Root() resource: ResourceEntity, @Ctx() ctx: ResourcesContext): Promise<ResourceVersionEntity[]> {
    return ctx.services.resources.versions(resource);
  }
}

@Resolver(() => MemoryEntry)
export class MemoryResolver {
  @Query(() => MemoryEntry, {
    nullable: true,
    description: 'A memory entry: the one with this cid, or without cid the one written last at the path; null when there is none.',
  })
  async memory(
    @Arg('path', { description: 'The memory path.' }) path: string,
    @Ctx() ctx: ResourcesContext,
    @Arg('cid', () => String, { nullable: true, description: 'Content id of an exact entry; absent: the current one.' })
    cid?: string | null,
    @Arg('recallFor', () => ID, { nullable: true, description: RECALL_FOR }) recallFor?: string,
  ): Promise<MemoryEntryEntity | null> {
    const found = await ctx.services.resources.findMemory(ctx.viewer, path, cid);
    if (found && recallFor != null) {
      valueOrThrow(await ctx.services.recalls.recordRecall(ctx.viewer, recallFor, { kind: 'MEMORY', path, cid: found.cid }));
    }
    return found;
  }

  @Mutation(() => MemoryEntry, {
    description:
      'Stores content under a path, content-addressed: the same content at the same path returns the entry stored the first time. Either way the path then names that entry.',
  })
  async writeMemory(@Arg('input', { description: 'The path and the content.' }) input: WriteMemoryInput, @Ctx() ctx: ResourcesContext): Promise<MemoryEntryEntity> {
    return valueOrThrow(await ctx.services.resources.writeMemory(ctx.viewer, input));
  }
}
