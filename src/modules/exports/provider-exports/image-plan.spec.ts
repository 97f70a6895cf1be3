import { realisticSnapshot } from '../../../../test/fixtures/snapshots';
import { findVisualStyle } from '../export-types/image-styles';
import { imagePrompt, MAX_FACTS, MAX_PANELS, planPrompt, planSources, snapshotImagePlan, validateImagePlan } from './image-plan';

describe('image export plans', () => {
  const snapshot = realisticSnapshot();
  const sources = planSources(snapshot);
  const [first, second] = sources.items;
  const style = findVisualStyle('swiss-grid')!;

  it('shows the plan model the top items with their key dates, the style and the language', () => {
    const prompt = planPrompt(sources, 'infographic', style, 'fr');
    expect(prompt).toContain('Write every text in French.');
    expect(prompt).toContain(`- id ${first!.id}: `);
    expect(prompt).toContain(`key date ${first!.key_date}`);
    expect(prompt).toContain('Swiss grid');
    expect(prompt).not.toMatch(/\[\[cite:/);
  });

  it('keeps facts about snapshot items with their own key date and numbers', () => {
    const { plan, dropped } = validateImagePlan(
      {
        title: 'The horizon',
        panels: [
          {
            heading: 'Dates',
            facts: [
              { item_id: first!.id, text: first!.title, date: first!.key_date },
              { item_id: second!.id, text: 'Next up' },
            ],
          },
        ],
      },
      sources,
    );
    expect(dropped).toEqual([]);
    expect(plan).toEqual({
      title: 'The horizon',
      panels: [
        {
          heading: 'Dates',
          facts: [
            { item_id: first!.id, text: first!.title, date: first!.key_date },
            { item_id: second!.id, text: 'Next up' },
          ],
        },
      ],
    });
  });

  it('drops facts about unknown items, with another date, or with numbers the item does not state', () => {
    const { plan, dropped } = validateImagePlan(
      {
        title: 'Outlook to 2099',
        panels: [
          {
            heading: 'Dates',
            facts: [
              { item_id: 'not-in-snapshot', text: 'A rule nobody wrote' },
              { item_id: first!.id, text: 'Moved', date: '1999-12-31' },
              { item_id: first!.id, text: 'Fines of 987654 euros' },
              { text: 'No item at all' },
              { item_id: first!.id, text: 'Kept', date: first!.key_date },
            ],
          },
          { heading: 'Empty', facts: [{ item_id: 'nope', text: 'gone' }] },
        ],
      },
      sources,
    );
    expect(plan!.panels).toEqual([{ heading: 'Dates', facts: [{ item_id: first!.id, text: 'Kept', date: first!.key_date }] }]);
    // A title with an invented number is replaced by the snapshot's own.
    expect(plan!.title).toBe(snapshot.title.slice(0, 120));
    expect(dropped.map((entry) => entry.reason)).toEqual([
      'names not-in-snapshot, which is not in the snapshot',
      `its date 1999-12-31 is not ${first!.id}'s key date`,
      `states a number ${first!.id} does not`,
      'names no item',
      'names nope, which is not in the snapshot',
      'states a number the snapshot does not',
    ]);
  });

  it('has no plan when nothing survives, or when the reply held no JSON', () => {
    expect(validateImagePlan({ title: 'x', panels: [{ heading: 'h', facts: [{ item_id: 'zzz', text: 't' }] }] }, sources).plan).toBeNull();
    expect(validateImagePlan({ panels: 'nope' }, sources).plan).toBeNull();
    expect(validateImagePlan(null, sources)).toEqual({ plan: null, dropped: [{ what: 'plan', reason: 'the reply held no JSON object' }] });
  });

  it('caps panels and facts', () => {
    const facts = Array.from({ length: 10 }, () => ({ item_id: first!.id, text: 'Fact' }));
    const panels = Array.from({ length: 10 }, (_, index) => ({ heading: `Panel`, facts, index }));
    const { plan } = validateImagePlan({ title: 'T', panels }, sources);
    expect(plan!.panels).toHaveLength(MAX_PANELS);
    expect(plan!.panels.every((panel) => panel.facts.length === MAX_FACTS)).toBe(true);
  });

  it('lays out a plan from the snapshot alone, and writes the image prompt from a plan', () => {
    const plan = snapshotImagePlan(snapshot, sources);
    expect(plan.panels[0]!.facts[0]).toMatchObject({ item_id: sources.items[0]!.id, date: sources.items[0]!.key_date });
    expect(validateImagePlan(plan as never, sources).plan).toEqual(plan);
    const prompt = imagePrompt(plan, 'infographic', style, 'de');
    expect(prompt).toContain('All text on the page is in German');
    expect(prompt).toContain('#E30613');
    expect(prompt).toContain(`${sources.items[0]!.key_date}: `);
  });
});
