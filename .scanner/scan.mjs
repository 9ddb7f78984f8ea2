// n8n's community package scanner (@n8n/scan-community-package, pinned in this folder), run offline
// as n8n runs it before verifying a package: its own ESLint config with inline eslint comments
// turned off, over the source's package.json and {nodes,credentials}/**, then over the packed
// tarball's .js files and package.json. The scanner's TypeScript 7 dependency breaks its parser
// here; TypeScript 5.9 installed beside it is the one its parser resolves.
//
// Passes when the only finding is the one the product requires: the credential's display name
// "Service Webhook Secret" does not end in "API".
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

import {
	SOURCE_FILE_PATTERNS,
	buildScanConfig,
} from '@n8n/scan-community-package/scanner/scanner.mjs';
import { ESLint } from 'eslint';
import glob from 'fast-glob';

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const ALLOWED = {
	leg: 'source',
	file: 'credentials/ServiceWebhookSecretApi.credentials.ts',
	ruleId: 'n8n-nodes-base/cred-class-field-display-name-missing-api',
};

/** The scanner's analyzePackage, keeping each finding instead of only its formatted text. */
async function findings(leg, dir, patterns) {
	const eslint = new ESLint({
		cwd: dir,
		allowInlineConfig: false,
		overrideConfigFile: true,
		overrideConfig: await buildScanConfig(),
	});
	const files = glob.sync(patterns, {
		cwd: dir,
		absolute: true,
		ignore: ['node_modules/**', '**/package-lock.json'],
	});
	if (files.length === 0) throw new Error(`${leg}: no files to scan in ${dir}`);
	const results = await eslint.lintFiles(files);
	const found = results.flatMap((result) =>
		result.messages
			.filter((message) => message.severity === 2)
			.map((message) => ({
				leg,
				file: relative(dir, result.filePath),
				line: message.line,
				ruleId: message.ruleId ?? 'parse error',
				message: message.message,
			})),
	);
	console.log(`${leg}: ${files.length} files scanned, ${found.length} finding(s)`);
	return found;
}

const packDir = mkdtempSync(join(tmpdir(), 'n8n-scan-'));
try {
	const name = execFileSync('npm', ['pack', '--ignore-scripts', '--pack-destination', packDir], {
		cwd: ROOT,
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'ignore'],
	})
		.trim()
		.split('\n')
		.pop();
	const unpacked = join(packDir, 'package');
	execFileSync('tar', ['-xzf', join(packDir, name), '-C', packDir]);

	const all = [
		...(await findings('source', ROOT, SOURCE_FILE_PATTERNS)),
		...(await findings('tarball', unpacked, ['**/*.js', 'package.json'])),
	];
	const isAllowed = (f) =>
		f.leg === ALLOWED.leg && f.file === ALLOWED.file && f.ruleId === ALLOWED.ruleId;
	for (const f of all) {
		const note = isAllowed(f) ? '  (allowed: the product name of the credential)' : '';
		console.log(`  ${f.leg} ${f.file}:${f.line}  ${f.ruleId}  ${f.message}${note}`);
	}
	const blocking = all.filter((f) => !isAllowed(f));
	console.log(
		blocking.length === 0
			? `scanner: passed (${all.length - blocking.length} allowed finding)`
			: `scanner: ${blocking.length} finding(s) to fix`,
	);
	process.exitCode = blocking.length === 0 ? 0 : 1;
} finally {
	rmSync(packDir, { recursive: true, force: true });
}
