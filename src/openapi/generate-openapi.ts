import 'reflect-metadata';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createHttpApp } from '../app.factory';
import { loadConfigOrExit, provideBackingServices } from '../bootstrap-env';
import { buildOpenApiDocument } from './openapi-document';

/** `npm run openapi:generate`: writes the committed contract file that a test compares with the code. */
async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const embedded = await provideBackingServices(config, () => undefined);
  const app = await createHttpApp();
  try {
    const document = buildOpenApiDocument(app);
    mkdirSync('openapi', { recursive: true });
    writeFileSync('openapi/openapi.json', `${JSON.stringify(document, null, 2)}\n`);
    process.stdout.write('wrote openapi/openapi.json\n');
  } finally {
    await app.close();
    await embedded?.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`openapi generation failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
