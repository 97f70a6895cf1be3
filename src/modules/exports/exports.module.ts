import { Module } from '@nestjs/common';
import { ExportTypesService } from './export-types.service';

@Module({
  providers: [ExportTypesService],
  exports: [ExportTypesService],
})
export class ExportsModule {}
