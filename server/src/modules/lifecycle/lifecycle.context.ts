import DataLoader from 'dataloader';
import type { RequestContext } from '../../shared/graphql/request-context';
import type { LoaderFactories } from '../../shared/graphql/lazy-loaders';
import type { ErasureReceiptEntity } from './erasure/erasure-receipt.entity';
import type { ErasureService } from './erasure/erasure.service';
import type { RetentionService } from './retention/retention.service';
import type { ExportService } from './portability/export.service';
import type { ImportService } from './portability/import.service';

export interface LifecycleServices {
  erasures: ErasureService;
  retention: RetentionService;
  exports: ExportService;
  imports: ImportService;
}

export interface LifecycleLoaders {
  /** The account's receipts by the instant they were written: every row an erasure touched carries that instant as its erasedAt. */
  receiptsByErasedAt: DataLoader<string, ErasureReceiptEntity[]>;
}

export interface LifecycleContext extends RequestContext {
  services: LifecycleServices;
  loaders: LifecycleLoaders;
}

/** The lifecycle module's loaders, new for each operation. */
export const lifecycleLoaders: LoaderFactories<LifecycleLoaders, LifecycleServices> = {
  receiptsByErasedAt: ({ accountId }, services) => new DataLoader((instants) => services.erasures.receiptsAt(accountId, instants)),
};
