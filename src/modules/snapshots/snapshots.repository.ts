import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Snapshot } from './entities/snapshot.entity';

@Injectable()
export class SnapshotsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  insert(manager: EntityManager, snapshot: Snapshot): Promise<unknown> {
    // The jsonb envelope defeats TypeORM's deep-partial typing; the row is complete.
    return manager.getRepository(Snapshot).insert(snapshot as never);
  }

  findOwned(accountId: string, id: string): Promise<Snapshot | null> {
    return this.dataSource.getRepository(Snapshot).findOneBy({ id, accountId });
  }
}
