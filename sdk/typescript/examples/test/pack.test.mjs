// The tarball `npm pack` made (sdk/typescript/target) is what a vendor installs: it installs offline (no runtime
// dependency), and both module systems load it with its type declarations.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

test('the packed @pmedia/client installs with no dependency and loads as ESM and CJS', () => {
    const target = fileURLToPath(new URL('../../target/', import.meta.url));
    const tarball = readdirSync(target).find((name) => /^pmedia-client-.*\.tgz$/.test(name));
    assert.ok(tarball, `npm pack wrote no tarball into ${target}`);
    const dir = mkdtempSync(join(tmpdir(), 'pmedia-pack-'));
    try {
        writeFileSync(join(dir, 'package.json'), '{ "private": true }');
        execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', join(target, tarball)],
            { cwd: dir, stdio: 'pipe' });
        const installed = join(dir, 'node_modules/@pmedia/client');
        assert.deepEqual(readdirSync(join(dir, 'node_modules')).filter((name) => !name.startsWith('.')), ['@pmedia']);
        for (const file of ['dist/esm/index.d.ts', 'dist/cjs/index.d.ts', 'dist/esm/webhooks.d.ts', 'README.md']) {
            assert.ok(existsSync(join(installed, file)), file);
        }
        const esm = execFileSync('node', ['--input-type=module', '-e',
            "import { PmediaClient, RealtimeMediaApi } from '@pmedia/client'; console.log(typeof PmediaClient, typeof RealtimeMediaApi)"],
        { cwd: dir, encoding: 'utf8' });
        assert.equal(esm.trim(), 'function function');
        const cjs = execFileSync('node', ['-e',
            "const m = require('@pmedia/client'); console.log(typeof m.PmediaClient, typeof m.PmediaApiError)"],
        { cwd: dir, encoding: 'utf8' });
        assert.equal(cjs.trim(), 'function function');
        // Strict types under every module resolution a project may use; node10 finds the subpath through typesVersions.
        writeFileSync(join(dir, 'main.ts'), [
            "import { PmediaClient, PmediaError } from '@pmedia/client';",
            "import { verifyWebhook, type WebhookEvent } from '@pmedia/client/webhooks';",
            'export function handle(headers: Record<string, string>, body: string, client: PmediaClient): string {',
            "    const event: WebhookEvent = verifyWebhook(headers, body, 'whsec_x');",
            "    if (event.type === 'batch.task.ended') { return event.data.taskId; }",
            "    if (event.type === 'video.viewed') { return String(event.data.views); }",
            '    return `${event.type} ${PmediaError.name} ${typeof client}`;',
            '}', ''].join('\n'));
        const tsc = fileURLToPath(new URL('../node_modules/typescript/bin/tsc', import.meta.url));
        for (const [module, resolution] of [['commonjs', 'node10'], ['nodenext', 'nodenext'], ['esnext', 'bundler']]) {
            execFileSync('node', [tsc, '--noEmit', '--strict', '--skipLibCheck', 'false', '--module', module,
                '--moduleResolution', resolution, '--lib', 'es2020,dom', 'main.ts'],
            { cwd: dir, stdio: 'pipe', env: { ...process.env, NODE_PATH: '' } });
        }
    } finally {
        rmSync(dir, { recursive: true, force: true });
    }
});
