/**
 * Options → Preview Only (Don't Send), in n8n's engine against the simulator: nothing reaches the
 * service, each item shows the exact body and the timestamp it was signed with, and those two,
 * signed with the real secret, give a request the simulator accepts; the recipe in
 * docs/reference.md's openssl recipe recomputes the same signature.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { IDataObject } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { buildSignatureHeader, computeSignature } from '../../../../credentials/common/signature';
import { errorOf, outputOf, runWorkflow } from '../../../../dev/engine';
import { PACKAGE_DIR } from '../../../../dev/packageDir';
import { AutomationServiceSimulator } from '../../../../dev/simulator';
import { expectNoLeak } from '../../../support/leaks';
import { NODE_NAME, triggerWorkflow } from '../../../support/workflows';

const ID = 'preview-automation';
const SECRET = 'preview_secret_0b7c2e9f';
const simulator = new AutomationServiceSimulator({ automations: [{ id: ID, secret: SECRET }] });

beforeAll(async () => {
	await simulator.start();
});
afterAll(async () => simulator.stop());

async function preview(items: IDataObject[], secret = SECRET) {
	const run = await runWorkflow(
		triggerWorkflow({
			parameters: {
				message: '={{ $json.message }}',
				contextMode: 'allFields',
				options: { previewOnly: true },
			},
			items,
			webhookUrl: simulator.webhookUrl(ID),
			secret,
		}),
	);
	return { run, items: outputOf(run, NODE_NAME).map((item) => item.json) };
}

describe('Preview Only: what would be sent, and nothing is', () => {
	const items = [
		{ message: 'Check order 1042', order: 1042 },
		{ message: 'Café ☕, then 🚀', note: 'it\'s "quoted"' },
	];

	it('no request reaches the service, and every item gets its preview', async () => {
		const before = simulator.requests;
		const { items: output } = await preview(items);
		expect(simulator.requests).toBe(before);
		expect(output).toHaveLength(2);
		for (const [index, item] of output.entries()) {
			const body = item.body as string;
			expect(JSON.parse(body)).toEqual({
				data: { message: items[index].message, context: items[index] },
			});
			expect(item).toMatchObject({
				preview: true,
				automationId: ID,
				method: 'POST',
				url: simulator.webhookUrl(ID),
				bodyBytes: Buffer.byteLength(body, 'utf8'),
				bodySha256: createHash('sha256').update(body, 'utf8').digest('hex'),
				signedAt: new Date(item.timestamp as number).toISOString(),
				signingInput: `${item.timestamp as number}.<body>`,
			});
			const headers = item.headers as Record<string, string>;
			expect(headers['Content-Type']).toBe('application/json');
			const full = computeSignature(SECRET, body, item.timestamp as number);
			expect(headers['X-Service-Signature']).toBe(
				`t=${item.timestamp as number},v1=${full.slice(0, 4)}…${full.slice(-4)}`,
			);
		}
	});

	it('neither the secret nor a full signature is anywhere in the output', async () => {
		const { run, items: output } = await preview(items);
		expectNoLeak(SECRET, { run });
		const text = JSON.stringify(run);
		for (const item of output) {
			expect(text).not.toContain(
				computeSignature(SECRET, item.body as string, item.timestamp as number),
			);
		}
	});

	it("the preview's body and timestamp, signed with the real secret, make a request the service accepts", async () => {
		const { items: output } = await preview([items[1]]);
		const { body, timestamp } = output[0] as { body: string; timestamp: number };
		const response = await fetch(simulator.webhookUrl(ID), {
			method: 'POST',
			headers: {
				'Content-Type': 'application/json',
				'X-Service-Signature': buildSignatureHeader(SECRET, body, timestamp),
			},
			body,
		});
		expect(response.status).toBe(202);
		expect(simulator.runs(ID).at(-1)).toMatchObject({
			message: items[1].message,
			context: items[1],
		});
	});

	it("docs/reference.md's openssl recipe recomputes the full signature of a preview", async () => {
		const page = readFileSync(join(PACKAGE_DIR, 'docs', 'reference.md'), 'utf8');
		const recipe = page.slice(page.indexOf('## Recompute a signature with openssl'));
		const block = /```sh\n([\s\S]*?)```/.exec(recipe)![1].split('\n');
		expect(block.some((line) => line.startsWith('T='))).toBe(true);
		expect(block.some((line) => line.startsWith('BODY='))).toBe(true);
		const command = block.find((line) => line.startsWith('printf'))!;
		const { items: output } = await preview([items[1]]);
		const { body, timestamp, headers } = output[0] as {
			body: string;
			timestamp: number;
			headers: Record<string, string>;
		};
		const printed = execFileSync('bash', ['-c', command], {
			env: {
				PATH: process.env.PATH,
				T: String(timestamp),
				BODY: body,
				AUTOMATION_SIGNING_SECRET: SECRET,
			},
			encoding: 'utf8',
		}).trim();
		expect(printed).toBe(computeSignature(SECRET, body, timestamp));
		expect(headers['X-Service-Signature']).toBe(
			`t=${timestamp},v1=${printed.slice(0, 4)}…${printed.slice(-4)}`,
		);
	});

	it('a secret the credential would refuse fails the item with the same message, nothing sent', async () => {
		const before = simulator.requests;
		const { run } = await preview([items[0]], ` ${SECRET}`);
		expect(errorOf(run, NODE_NAME)?.message).toMatch(/starts or ends with whitespace/);
		expect(simulator.requests).toBe(before);
	});
});
