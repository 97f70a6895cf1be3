import { toOpenApi31 } from './openapi-document';
import { WEBHOOK_EVENTS } from '../modules/webhooks/webhook-events';
import { withWebhooks } from './webhooks-section';

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

describe('withWebhooks', () => {
  it('documents one signed POST per event, each with a payload schema the document defines', () => {
    const document = withWebhooks({ openapi: '3.1.0', info: { title: 't', version: '1' }, paths: {}, components: { schemas: {} } });
    const webhooks = (
      document as unknown as {
        webhooks: Record<
          string,
          { post: { requestBody: { content: Record<string, { schema: { $ref: string } }> }; parameters: Array<{ name: string }> } }
        >;
      }
    ).webhooks;
    expect(Object.keys(webhooks)).toEqual([...WEBHOOK_EVENTS]);
    for (const { post } of Object.values(webhooks)) {
      expect(post.parameters.map((p) => p.name)).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature']);
      const name = post.requestBody.content['application/json'].schema.$ref.split('/').pop()!;
      expect(document.components!.schemas![name]).toBeDefined();
    }
  });
});
