/**
 * Work (a scan or a provider export) that cannot succeed: a bad model choice, a provider not configured, a
 * provider's permanent refusal. Its message is shown to the client, so it never carries a credential.
 */
export class EngineFailure extends Error {}
