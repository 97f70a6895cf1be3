import { toOpenApi31 } from './openapi-document';

describe('toOpenApi31', () => {
  it('turns nullable scalars into type arrays, nullable enums include null', () => {
    expect(toOpenApi31({ type: 'string', nullable: true, enum: ['a', 'b'] })).toEqual({ type: ['string', 'null'], enum: ['a', 'b', null] });
  });

  it('wraps nullable references in anyOf, keeping the description outside', () => {
    expect(toOpenApi31({ $ref: '#/components/schemas/X', nullable: true, description: 'd' })).toEqual({
      description: 'd',
      anyOf: [{ $ref: '#/components/schemas/X' }, { type: 'null' }],
    });
  });

  it('leaves examples untouched and recurses into nested schemas', () => {
    const input = { properties: { a: { type: 'integer', nullable: true } }, example: { nullable: true } };
    expect(toOpenApi31(input)).toEqual({ properties: { a: { type: ['integer', 'null'] } }, example: { nullable: true } });
  });
});
