/**
 * Snapshots for the renderer tests: a realistic one composed offline from the bundled calendar (EU + UK,
 * AML / KYC + Payments, 12 months from 2026-11-22), a 100-item synthetic one across eight jurisdictions, and
 * variants with awkward text (quotes, commas, line breaks, markup) and with Chinese / Japanese titles.
 */
import { loadCalendar } from '../../../../engine/calendar/calendar.loader';
import type { Calendar } from '../../../../engine/calendar/calendar.types';
import type { SnapshotEnvelope, SnapshotItem } from '../../../../engine/envelope.types';
import { analyseOffline } from '../../../../engine/offline/compose';
import type { RenderInput, RenderSnapshot } from '../types';

export const SCAN_DATE = '2026-11-22';

let calendar: Calendar | null = null;

function envelopeFor(jurisdictions: string[], areas: string[], horizonMonths: number): SnapshotEnvelope {
  calendar ??= loadCalendar();
  const analysis = analyseOffline(calendar, {
    jurisdictions,
    areas,
    horizonMonths,
    scanDate: SCAN_DATE,
    engine: 'offline',
    realist: true,
    auditor: true,
  });
  return {
    items: analysis.items,
    trends: analysis.trends,
    executive_summary: analysis.executive_summary,
    executive_narrative: analysis.executive_narrative,
    _briefing: analysis._briefing,
    auditor: analysis.auditor,
    translations: {},
    _meta: analysis._meta as unknown as Record<string, unknown>,
  };
}

export function realisticSnapshot(): RenderSnapshot {
  return {
    id: 'snp_01JD8Z7K3QX',
    title: 'EU and UK AML / KYC and Payments horizon',
    created_at: `${SCAN_DATE}T09:30:00.000Z`,
    config: { jurisdictions: ['EU', 'UK'], areas: ['AML / KYC', 'Payments'], horizon: 12, engine: 'offline' },
    data: envelopeFor(['EU', 'UK'], ['AML / KYC', 'Payments'], 12),
  };
}

const JURISDICTIONS = ['EU', 'UK', 'US', 'Singapore', 'Hong Kong', 'Japan', 'Australia', 'Switzerland'];

/** `count` items (default 100) cycled from the realistic ones, spread over eight jurisdictions. */
export function syntheticSnapshot(count = 100): RenderSnapshot {
  const base = realisticSnapshot();
  const source = base.data.items;
  const items: SnapshotItem[] = [];
  for (let i = 0; i < count; i++) {
    const template = source[i % source.length]!;
    const jurisdiction = JURISDICTIONS[i % JURISDICTIONS.length]!;
    const month = String((i % 12) + 1).padStart(2, '0');
    const day = String((i % 27) + 1).padStart(2, '0');
    items.push({
      ...template,
      id: `synthetic-${String(i + 1).padStart(3, '0')}`,
      title: `Synthetic ${String(i + 1).padStart(3, '0')}: ${template.title}`,
      jurisdiction,
      key_date: `${i % 12 < 1 ? 2026 : 2027}-${i % 12 < 1 ? '12' : month}-${day}`,
      citations: template.citations.map((citation) => ({ ...citation, id: citation.id + 100 * Math.floor(i / source.length) })),
    });
  }
  return {
    ...base,
    id: 'snp_synthetic100',
    title: 'Global payments and financial crime horizon (synthetic, 100 items)',
    config: { ...base.config, jurisdictions: JURISDICTIONS },
    data: { ...base.data, items },
  };
}

/** The realistic snapshot with text that CSV, HTML and SVG must carry through intact. */
export function awkwardSnapshot(): RenderSnapshot {
  const snapshot = realisticSnapshot();
  const items = snapshot.data.items.map((item) => ({ ...item }));
  items[0] = {
    ...items[0]!,
    title: 'The "Quoted", comma, <b>bold</b> & <script>alert(1)</script> regulation',
    summary: 'First line, with a comma and "quotes".\nSecond line after a line break; then a tab\there.',
    implications: '=HYPERLINK("http://example.invalid") must stay text',
  };
  items[1] = { ...items[1]!, title: "Apostrophe's & ampersand — em dash … ellipsis" };
  return { ...snapshot, data: { ...snapshot.data, items } };
}

export const ZH_TITLES = [
  '支付服务指令第三版（PSD3）与支付服务条例',
  '反洗钱条例：统一规则手册',
  '即时支付条例',
  '英国授权推送支付诈骗强制赔付',
];
export const JA_TITLES = ['マネー・ローンダリング規則の改正', '暗号資産サービス提供者の報告義務'];

/** The realistic snapshot with some titles (and one summary) in Chinese. */
export function zhSnapshot(): RenderSnapshot {
  const snapshot = realisticSnapshot();
  const items = snapshot.data.items.map((item, index) =>
    index < ZH_TITLES.length
      ? {
          ...item,
          title: ZH_TITLES[index]!,
          summary: index === 0 ? '该一揽子方案将PSD2拆分为一项指令和一项直接适用的条例。' : item.summary,
        }
      : item,
  );
  return { ...snapshot, title: '欧盟与英国反洗钱及支付监管展望', data: { ...snapshot.data, items } };
}

/** The realistic snapshot with some titles in Japanese. */
export function jaSnapshot(): RenderSnapshot {
  const snapshot = realisticSnapshot();
  const items = snapshot.data.items.map((item, index) => (index < JA_TITLES.length ? { ...item, title: JA_TITLES[index]! } : item));
  return { ...snapshot, title: 'EU・英国 規制ホライズン', data: { ...snapshot.data, items } };
}

export function input(snapshot: RenderSnapshot, options: Record<string, string> = {}, locale = 'en'): RenderInput {
  return { snapshot, options, locale };
}
