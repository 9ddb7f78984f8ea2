import type { INodeType } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { loadPackage } from '../dev/engine';
import { DEFAULTS } from '../nodes/TriggerAutomation/description';
import { parseRetryAfter } from '../nodes/TriggerAutomation/answerFailure';
import { headerValue } from '../nodes/TriggerAutomation/response';

describe('option defaults: what the editor shows is what the node uses', () => {
	it('DEFAULTS are read from the fields the editor shows: Timeout 30000, Items per Batch 50, Batch Interval 1000', async () => {
		const { nodeTypes } = await loadPackage();
		const node = nodeTypes['n8n-nodes-automation-service.triggerAutomation'] as INodeType;
		const options = node.description.properties.find((p) => p.name === 'options')!.options!;
		const byName = (name: string) => options.find((o) => 'name' in o && o.name === name)!;
		expect((byName('timeout') as { default: number }).default).toBe(30000);
		const batch = (
			byName('batching') as { options: Array<{ values: Array<{ name: string; default: number }> }> }
		).options[0].values;
		expect(batch.find((v) => v.name === 'batchSize')!.default).toBe(50);
		expect(batch.find((v) => v.name === 'batchInterval')!.default).toBe(1000);
		expect(DEFAULTS).toEqual({ timeoutMs: 30000, batchSize: 50, batchIntervalMs: 1000 });
	});
});

describe('Retry-After (429): delta-seconds or an HTTP date', () => {
	const now = Date.parse('2026-11-21T10:00:00Z');

	it('reads seconds', () => {
		expect(parseRetryAfter('7', now)).toBe(7_000);
	});

	it('reads an HTTP date as the time left until then', () => {
		expect(parseRetryAfter('Sat, 21 Nov 2026 10:00:30 GMT', now)).toBe(30_000);
		expect(parseRetryAfter('Sat, 21 Nov 2026 09:59:00 GMT', now)).toBe(0);
	});

	it('ignores what it cannot read', () => {
		expect(parseRetryAfter(undefined, now)).toBeUndefined();
		expect(parseRetryAfter('soon', now)).toBeUndefined();
	});
});

describe('response headers: found whatever the case of their names', () => {
	it('reads the lower-case name Node.js gives, and any other spelling', () => {
		expect(headerValue({ 'retry-after': '7' }, 'Retry-After')).toBe('7');
		expect(headerValue({ 'Retry-After': '7' }, 'retry-after')).toBe('7');
		expect(headerValue({ LOCATION: ['/a', '/b'] }, 'location')).toBe('/a');
		expect(headerValue({ date: 'x' }, 'location')).toBeUndefined();
	});
});
