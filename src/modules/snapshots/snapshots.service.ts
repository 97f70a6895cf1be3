import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Snapshot } from './entities/snapshot.entity';
import { storedProjection } from './snapshot-projection';
import { SnapshotsRepository } from './snapshots.repository';

export interface SnapshotView {
  id: string;
  title: string;
  config: Record<string, unknown>;
  data: Record<string, unknown>;
  cost_cents: number | null;
  created_at: string;
}

@Injectable()
export class SnapshotsService {
  constructor(private readonly repository: SnapshotsRepository) {}

  /** Writes a snapshot inside the caller's transaction (the scan's completion). */
  insert(manager: EntityManager, snapshot: Snapshot): Promise<unknown> {
    return this.repository.insert(manager, snapshot);
  }

  findOwned(accountId: string, id: string): Promise<Snapshot | null> {
    return this.repository.findOwned(accountId, id);
  }

  /** GET /v1/snapshots/{id} shape; the same projection serves a `complete` event replayed from storage. */
  view(snapshot: Snapshot): SnapshotView {
    return {
      id: snapshot.id,
      title: snapshot.title,
      config: snapshot.config as unknown as Record<string, unknown>,
      data: storedProjection(snapshot.data),
      cost_cents: snapshotCost(snapshot),
      created_at: snapshot.createdAt.toISOString(),
    };
  }
}

/** Reconciled actual when available (may be fractional), else the original whole-cent estimate. */
export function snapshotCost(snapshot: Pick<Snapshot, 'costCents' | 'estimateCents'>): number | null {
  if (snapshot.costCents !== null) return Number(snapshot.costCents);
  return snapshot.estimateCents;
}
