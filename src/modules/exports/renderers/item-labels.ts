/** Labels of item stages, date confidences and impacts as the artefacts print them. */
import type { DateConfidence, Impact, ItemStage } from '../../../engine/envelope.types';

export const STAGE_LABELS: Readonly<Record<ItemStage, string>> = {
  proposed: 'Proposed',
  consultation: 'Consultation',
  adopted: 'Adopted',
  in_force: 'In force',
  applies: 'Applies',
};

export const CONFIDENCE_LABELS: Readonly<Record<DateConfidence, string>> = {
  confirmed: 'Confirmed',
  expected: 'Expected',
  speculative: 'Estimated',
};

export const IMPACT_LABELS: Readonly<Record<Impact, string>> = { high: 'High', medium: 'Medium', low: 'Low' };

export const IMPACTS: readonly Impact[] = ['high', 'medium', 'low'];

export function label<K extends string>(labels: Readonly<Record<K, string>>, value: string): string {
  return (labels as Record<string, string>)[value] ?? value.replace(/_/g, ' ');
}
