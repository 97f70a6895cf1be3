import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AccountsModule } from '../accounts/accounts.module';
import { KeysModule } from '../keys/keys.module';
import { AuthGuard } from './auth.guard';
import { DashboardSessionService } from './dashboard-session.service';

@Global()
@Module({
  imports: [AccountsModule, KeysModule],
  providers: [DashboardSessionService, { provide: APP_GUARD, useClass: AuthGuard }],
  exports: [DashboardSessionService],
})
export class AuthModule {}
