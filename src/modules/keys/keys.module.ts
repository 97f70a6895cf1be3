import { Module } from '@nestjs/common';
import { KeysController } from './keys.controller';
import { KeysRepository } from './keys.repository';
import { KeysService } from './keys.service';

@Module({
  controllers: [KeysController],
  providers: [KeysRepository, KeysService],
  exports: [KeysService],
})
export class KeysModule {}
