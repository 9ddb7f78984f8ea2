/**
 * `npm run dev` (dev/n8nDev.ts) in the real n8n apps, on this offline machine: the terminal gets the
 * steps and the summary, n8n's own output goes to the log file the summary names, and n8n's own
 * settings keep its offline noise (lookups of n8n's hosts and their stack traces, deprecation notices
 * for defaults) out of that log where n8n has one.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { APPS, freePort } from '../dev/n8nApp';
import type { DevN8n } from '../dev/n8nDev';
import { startDevN8n } from '../dev/n8nDev';

for (const app of Object.values(APPS)) {
	describe(`${app.id}: npm run dev`, () => {
		const dataDir = mkdtempSync(join(tmpdir(), `${app.id}-dev-`));
		const printed: string[] = [];
		let dev: DevN8n;
		let log = '';

		beforeAll(async () => {
			dev = await startDevN8n({
				app,
				port: await freePort(),
				dataDir,
				print: (text) => printed.push(text),
			});
			log = readFileSync(dev.logFile, 'utf8');
		});

		afterAll(async () => {
			await dev?.stop();
			rmSync(dataDir, { recursive: true, force: true });
		});

		it("the terminal gets the steps and the summary; n8n's output goes to the log file the summary names", () => {
			const terminal = printed.join('\n');
			expect(terminal).toMatch(/^ {2}Editor: {5}http:\/\/127\.0\.0\.1:\d+$/m);
			expect(terminal).toContain(`  n8n log:    ${dev.logFile}`);
			expect(terminal).not.toMatch(/license SDK|Task Broker|deprecat|Python|ENOTFOUND/i);
			expect(log).toMatch(/Editor is now accessible/);
			expect(log).toMatch(/Successfully imported 3 workflows/);
		});

		it("offline, n8n's log has no lookup of n8n's hosts and no stack trace", () => {
			expect(log).not.toMatch(/ENOTFOUND|api\.n8n\.io/);
			expect(log).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
		});

		if (app.id === 'n8n-2') {
			it('n8n 2.x lists only the deprecation it has no setting for: the internal task runner', () => {
				const listed = [...log.matchAll(/^ - (\w+) -> /gm)].map((match) => match[1]);
				expect(listed).toEqual(['N8N_RUNNERS_MODE']);
			});
		}
	});
}
