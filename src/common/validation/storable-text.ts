import { ValidateBy, type ValidationOptions } from 'class-validator';

/**
 * PostgreSQL stores neither U+0000 (text and jsonb) nor an unpaired UTF-16 surrogate (jsonb rejects its `\ud800`
 * escape), so a string holding one would fail its INSERT or query with a 500. Linear: one pass, no backtracking.
 */
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function isStorableText(value: string): boolean {
  return !UNSTORABLE.test(value);
}

export const unstorableTextMessage = (path: string) => `${path} must not contain NUL characters (U+0000) or unpaired UTF-16 surrogates`;

/** DTO form of isStorableText; non-strings pass, so the property's type rule reports them. */
export function IsStorableText(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isStorableText',
      validator: {
        validate: (value: unknown) => typeof value !== 'string' || isStorableText(value),
        defaultMessage: (args) => unstorableTextMessage(args?.property ?? 'value'),
      },
    },
    options,
  );
}
