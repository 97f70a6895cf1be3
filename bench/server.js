// The benchmarked service, in its own process so the load generator does not share its event loop.
// Besides the app as built (dist/), it serves the meta engines handler two more ways:
//   /__bench/raw      a plain Express route, ahead of everything Nest does;
//   /__bench/engines  the same Nest handler with the policy chain off (public: no auth, no rate limit).
require('reflect-metadata');
const { Controller, Get, Module } = require('@nestjs/common');
const { createHttpApp } = require('../dist/src/app.factory');
const { AppModule } = require('../dist/src/app.module');
const { Auth } = require('../dist/src/common/auth/auth.decorator');
const { MetaService } = require('../dist/src/modules/meta/meta.service');
const { MetaModule } = require('../dist/src/modules/meta/meta.module');

class BenchController {
  constructor(meta) {
    this.meta = meta;
  }
  engines() {
    return this.meta.engines();
  }
}
Reflect.decorate(
  [Get('engines'), Auth('public')],
  BenchController.prototype,
  'engines',
  Object.getOwnPropertyDescriptor(BenchController.prototype, 'engines'),
);
Reflect.defineMetadata('design:paramtypes', [MetaService], BenchController);
Controller('__bench')(BenchController);

class BenchRootModule {}
Module({ imports: [AppModule, MetaModule], controllers: [BenchController] })(BenchRootModule);

(async () => {
  const app = await createHttpApp(BenchRootModule);
  const meta = app.get(MetaService);
  app
    .getHttpAdapter()
    .getInstance()
    .get('/__bench/raw', (_req, res) => res.json(meta.engines()));
  await app.listen(0, '127.0.0.1');
  process.send({ port: app.getHttpServer().address().port });
  process.on('message', (message) => {
    if (message === 'memory') {
      global.gc?.();
      process.send({ memory: process.memoryUsage() });
    }
  });
  process.on('disconnect', () => app.close().then(() => process.exit(0)));
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
