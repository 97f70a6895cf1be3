/** The image body for a style's layout hint (image-styles.ts). */
import { type StyleLayout } from '../export-types/image-styles';
import { Svg } from './svg';
import { timeline, radial, heatmap, lanes } from './image-layout-charts';
import { pins } from './image-layout-map';
import { cardsGrid, columns, itemsTable, itemList, bento, hero } from './image-layout-lists';
import type { Look, Box, Content, Shown, Variant } from './image-layout-parts';

/** Draws the body; returns what it shows whole (see Shown). */
export function drawBody(svg: Svg, look: Look, layout: StyleLayout, content: Content, box: Box, variant: Variant): Shown {
  if (content.items.length === 0) {
    svg.text(box.x, box.y + 40, 'No items fall inside the horizon.', { size: 28, fill: look.muted }, box.w);
    return 0;
  }
  switch (layout) {
    case 'grid':
      return cardsGrid(svg, look, content, box, variant);
    case 'columns':
      return columns(svg, look, content, box);
    case 'table':
      return variant === 'infographic' ? heatmap(svg, look, content, box) : itemsTable(svg, look, content, box);
    case 'list':
      return itemList(svg, look, content, box);
    case 'timeline':
      return timeline(svg, look, content, box);
    case 'radial':
      return radial(svg, look, content, box);
    case 'cards':
      return bento(svg, look, content, box);
    case 'hero':
      return hero(svg, look, content, box);
    case 'map':
      return pins(svg, look, content, box);
    case 'lanes':
      return lanes(svg, look, content, box);
    default:
      return itemList(svg, look, content, box);
  }
}
