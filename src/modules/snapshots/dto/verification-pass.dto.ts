import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class VerifiedPageDto {
  @ApiProperty({ example: 'https://eur-lex.europa.eu/eli/reg/2024/886/oj' })
  url: string;
  @ApiProperty({
    enum: ['read', 'unreachable', 'not_read'],
    description: '`read`: its text was obtained; `unreachable`: the read failed or gave no text; `not_read`: over the per-scan page limit',
  })
  outcome: string;
  @ApiProperty({ example: 'Read 4,812 characters.' })
  detail: string;
}

export class VerificationEvidenceDto {
  @ApiProperty({
    enum: ['calendar', 'cited_pages', 'source_snippets'],
    description:
      "`calendar`: the regulatory calendar's own entry and sources (offline; no page is read); `cited_pages`: the item's cited pages, read in the final QA stage through the scan's verifyProvider; `source_snippets`: the search snippets and page excerpts the analysis already had",
  })
  basis: string;
  @ApiProperty({ example: "Checked against the regulatory calendar's own entries and sources (offline; no page was read)" })
  description: string;
  @ApiPropertyOptional({ enum: ['fetch-a', 'fetch-b'], description: 'The page-read backend (cited_pages only)' })
  provider?: string;
  @ApiProperty({ type: [VerifiedPageDto], description: 'Each cited page and what became of its read; empty when no page was read' })
  pages: VerifiedPageDto[];
}

export class VerificationPassDto {
  @ApiProperty({ enum: ['realist', 'auditor'], description: 'Which verification pass judged the item' })
  pass: string;
  @ApiProperty({ enum: ['verified', 'unverified', 'disputed'] })
  status: string;
  @ApiProperty({ example: 'Confirmed date 9 January 2027, consistent with the applies stage.', description: "The pass's reason" })
  note: string;
  @ApiPropertyOptional({ type: VerificationEvidenceDto, description: 'What the pass checked the item against; absent on older snapshots' })
  checked?: VerificationEvidenceDto;
}
