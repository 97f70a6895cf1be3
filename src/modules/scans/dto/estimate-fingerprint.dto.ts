import { ApiProperty } from '@nestjs/swagger';

export class EstimateFingerprintDto {
  @ApiProperty() scan_mode: string;
  @ApiProperty() engine_version: string;
  @ApiProperty() jurisdiction_bucket: string;
  @ApiProperty() area_bucket: string;
  @ApiProperty() enabled_exports_count: number;
  @ApiProperty() provider_mix_hash: string;
  @ApiProperty() date_range_bucket: string;
}
