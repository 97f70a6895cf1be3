import 'reflect-metadata';
import { runCli } from './cli/run-cli';

/** The operator command line (../shared/spec/decisions.md section 3): `npm run cli -- <command> [options]`. */
runCli(process.argv.slice(2), { out: (text) => process.stdout.write(text), err: (text) => process.stderr.write(text) }).then(
  (code) => process.exit(code),
  () => process.exit(1),
);
