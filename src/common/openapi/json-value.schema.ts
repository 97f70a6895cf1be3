/**
 * Any JSON value, for fields whose type follows the data (drift's `before`/`after`). A bare `{type: object}` would
 * read as an empty object to generators, so the object branch is open.
 */
export const ANY_JSON_VALUE = {
  anyOf: [
    { type: 'string' },
    { type: 'number' },
    { type: 'boolean' },
    { type: 'object', additionalProperties: true },
    { type: 'array', items: {} },
    { type: 'null' },
  ],
};
