// The package is "type": "module"; the CommonJS build in dist/cjs says so for its own folder.
import { writeFileSync } from 'node:fs';
writeFileSync(new URL('../dist/cjs/package.json', import.meta.url), '{ "type": "commonjs" }\n');
