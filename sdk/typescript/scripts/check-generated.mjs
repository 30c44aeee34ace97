// Fails the build when committed generated code is not what docs/openapi.yaml generates now: the Maven build generates
// a fresh copy (target/generated-check/) and this compares the two, file by file. Used by sdk/typescript and sdk/python.
// Usage: node check-generated.mjs <fresh copy> <committed folder> [<its name> <the command that regenerates it>]
import fs from 'node:fs';
import path from 'node:path';

const [fresh, committed, name = 'sdk/typescript/src/generated',
  REGENERATE = './mvnw -pl sdk/typescript -Pregenerate generate-sources'] = process.argv.slice(2);

function files(root, dir = root) {
  if (!fs.existsSync(dir)) { return []; }
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? files(root, full) : [path.relative(root, full)];
  });
}

const want = new Set(files(fresh));
const have = new Set(files(committed));
const differing = [
  ...[...want].filter((file) => !have.has(file)).map((file) => `missing: ${file}`),
  ...[...have].filter((file) => !want.has(file)).map((file) => `not generated any more: ${file}`),
  ...[...want].filter((file) => have.has(file)
    && !fs.readFileSync(path.join(fresh, file)).equals(fs.readFileSync(path.join(committed, file)))).map((file) => `differs: ${file}`),
].sort();
if (want.size === 0) {
  console.error(`nothing was generated into ${fresh}`);
  process.exit(2);
}
if (differing.length) {
  console.error(`${name} is not what docs/openapi.yaml generates (${differing.length} file(s)):`);
  differing.slice(0, 20).forEach((line) => console.error(`  ${line}`));
  if (differing.length > 20) { console.error(`  ... and ${differing.length - 20} more`); }
  console.error(`Regenerate it with: ${REGENERATE}   (from the repository root), then commit ${name}`);
  process.exit(1);
}
console.log(`${name} is up to date with docs/openapi.yaml (${want.size} files)`);
