import { Controller, Get } from '@nestjs/common';
import { DECORATORS } from '@nestjs/swagger';
import { ApiProblems } from './api-problems.decorator';

@ApiProblems('authentication_required', { code: 'not_found', summary: 'class wording' })
@Controller('things')
class ThingsController {
  @Get(':id')
  @ApiProblems({ code: 'not_found', summary: 'No thing with this id.' }, 'validation_error')
  @ApiProblems(
    { code: 'invalid_idempotency_key', summary: 'Bad key.' },
    {
      code: 'validation_error',
      name: 'too_long',
      summary: 'Too long.',
      errors: [{ path: 'name', code: 'too_long', message: 'name is too long' }],
    },
  )
  get(): void {}

  helper(): void {}
}

const responses = Reflect.getMetadata(DECORATORS.API_RESPONSE, ThingsController.prototype.get) as Record<string, any>;
const examples = (status: number) => responses[status].content['application/problem+json'].examples;

describe('ApiProblems', () => {
  it('merges the examples of every use into one response per status instead of keeping only the last', () => {
    expect(Object.keys(examples(422))).toEqual(['validation_error', 'too_long', 'invalid_idempotency_key']);
    expect(examples(422).too_long.value).toMatchObject({ code: 'validation_error', status: 422, errors: [{ code: 'too_long' }] });
    expect(responses[422].description).toBe(
      [
        '- `validation_error`: Some fields are invalid; `errors[]` lists each with its path and code.',
        '- `validation_error` with field code `too_long`: Too long.',
        '- `invalid_idempotency_key`: Bad key.',
      ].join('\n'),
    );
  });

  it("documents the class's problems on each route, where the operation's own wording wins", () => {
    expect(Object.keys(examples(401))).toEqual(['authentication_required']);
    expect(responses[404].description).toBe('`not_found`: No thing with this id.');
    expect(examples(404).not_found.value.detail).toBe('No thing with this id.');
    expect(Reflect.getMetadata(DECORATORS.API_RESPONSE, ThingsController.prototype.helper)).toBeUndefined();
  });

  it('adds the problems every route can answer', () => {
    expect(Object.keys(responses).sort()).toEqual(['400', '401', '404', '422', '500']);
  });
});
