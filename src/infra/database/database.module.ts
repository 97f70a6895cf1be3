import { DynamicModule, Inject, Injectable, Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { dataSourceOptions } from './data-source-options';
import { runMigrationsWithLock } from './migrate';

/** Runs pending migrations at start-up (unless MIGRATIONS_RUN=false), before dependent modules initialise. */
@Injectable()
export class DatabaseMigrator implements OnModuleInit {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    if (this.config.migrationsRun) await runMigrationsWithLock(this.dataSource);
  }
}

@Module({})
export class DatabaseModule {
  /** The connection over the application's entities (src/app.entities.ts), migrated at start-up. */
  static forRoot(entities: Parameters<typeof dataSourceOptions>[1]): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          inject: [APP_CONFIG],
          useFactory: (config: AppConfig) => {
            if (!config.databaseUrl) throw new Error('DATABASE_URL: not set and no embedded database was started');
            return { ...dataSourceOptions(config.databaseUrl, entities), retryAttempts: 3, retryDelay: 1000 };
          },
        }),
      ],
      providers: [DatabaseMigrator],
    };
  }
}
