import { InitialSchema1795357650037 } from '../../../migrations/1795357650037-InitialSchema';
import { RequestPolicies1795358271177 } from '../../../migrations/1795358271177-RequestPolicies';
import { ScansAndSnapshots1795358966292 } from '../../../migrations/1795358966292-ScansAndSnapshots';
import { Exports1795361954152 } from '../../../migrations/1795361954152-Exports';
import { MoneyAndRecovery1795469942042 } from '../../../migrations/1795469942042-MoneyAndRecovery';
import { SnapshotListIndexes1795700000000 } from '../../../migrations/1795700000000-SnapshotListIndexes';
import { SnapshotRepresentations1795710000000 } from '../../../migrations/1795710000000-SnapshotRepresentations';
import { Webhooks1795720000000 } from '../../../migrations/1795720000000-Webhooks';
import { AccountExportSettings1795730000000 } from '../../../migrations/1795730000000-AccountExportSettings';
import { WebhookOperations1795740000000 } from '../../../migrations/1795740000000-WebhookOperations';
import { ExportRenderedBy1795760000000 } from '../../../migrations/1795760000000-ExportRenderedBy';

/** Every migration, in order. `npm run migration:generate -- migrations/<Name>` writes new files; list them here. */
export const MIGRATIONS: Function[] = [
  InitialSchema1795357650037,
  RequestPolicies1795358271177,
  ScansAndSnapshots1795358966292,
  Exports1795361954152,
  MoneyAndRecovery1795469942042,
  SnapshotListIndexes1795700000000,
  SnapshotRepresentations1795710000000,
  Webhooks1795720000000,
  AccountExportSettings1795730000000,
  WebhookOperations1795740000000,
  ExportRenderedBy1795760000000,
];
