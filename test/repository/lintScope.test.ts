/**
 * The repository lint (eslint.dev.config.mjs) keeps n8n's node rules on what ships and only there,
 * and eslint.config.mjs stays n8n's default, which n8n's strict mode checks byte for byte.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

import { PACKAGE_DIR } from '../../dev/packageDir';

const eslint = new ESLint({
	cwd: PACKAGE_DIR,
	overrideConfigFile: join(PACKAGE_DIR, 'eslint.dev.config.mjs'),
});
const SOURCE = "import { createServer } from 'node:http';\nexport const server = createServer();\n";

async function rulesFiredIn(filePath: string): Promise<string[]> {
	const [result] = await eslint.lintText(SOURCE, { filePath: join(PACKAGE_DIR, filePath) });
	return result.messages.map((message) => message.ruleId ?? message.message);
}

describe('lint scope: n8n node rules on shipped code only', () => {
	it('a Node built-in in nodes/ or credentials/ is an error, as n8n verification makes it', async () => {
		expect(await rulesFiredIn('nodes/TriggerAutomation/probe.ts')).toContain(
			'@n8n/community-nodes/no-restricted-imports',
		);
		expect(await rulesFiredIn('credentials/probe.ts')).toContain(
			'@n8n/community-nodes/no-restricted-imports',
		);
	});

	it('the same code in dev, test (its nodes/ and credentials/ too), e2e or bench code is fine', async () => {
		const tests = ['test', 'test/nodes/TriggerAutomation', 'test/credentials/common'];
		for (const folder of ['dev', ...tests, 'e2e', 'bench']) {
			expect(await rulesFiredIn(`${folder}/probe.ts`)).toEqual([]);
		}
	});

	it("eslint.config.mjs is the n8n node CLI's default, as strict mode requires", () => {
		// Where n8n-node lint reads the default it compares with.
		const cli = join(PACKAGE_DIR, 'node_modules', '@n8n', 'node-cli');
		const template = join(cli, 'dist/template/templates/shared/default/eslint.config.mjs');
		expect(readFileSync(join(PACKAGE_DIR, 'eslint.config.mjs'), 'utf8')).toBe(
			readFileSync(template, 'utf8'),
		);
	});
});
