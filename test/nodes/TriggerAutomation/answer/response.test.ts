import { describe, expect, it } from 'vitest';

import {
	MAX_ANSWER_BYTES,
	headerValue,
	outputJson,
} from '../../../../nodes/TriggerAutomation/answer/response';

describe('response headers: found whatever the case of their names', () => {
	it('reads the lower-case name Node.js gives, and any other spelling', () => {
		expect(headerValue({ 'retry-after': '7' }, 'Retry-After')).toBe('7');
		expect(headerValue({ 'Retry-After': '7' }, 'retry-after')).toBe('7');
		expect(headerValue({ LOCATION: ['/a', '/b'] }, 'location')).toBe('/a');
		expect(headerValue({ date: 'x' }, 'location')).toBeUndefined();
	});
});

describe('an accepted answer longer than 1 MiB stays accepted', () => {
	it('its first 1 MiB is the response, as text, and responseTruncated says so', () => {
		const body = Buffer.from(`{"runId":"r-1","pad":"${'x'.repeat(MAX_ANSWER_BYTES)}`).subarray(
			0,
			MAX_ANSWER_BYTES,
		);
		const json = outputJson(
			{ automationId: 'auto-7' },
			{ statusCode: 202, headers: { 'content-type': 'application/json' }, body, cut: true },
			false,
		);
		expect(json).toEqual({
			automationId: 'auto-7',
			statusCode: 202,
			response: body.toString('utf8'),
			responseTruncated:
				"The answer's body is longer than 1048576 bytes (1 MiB): response holds its first 1048576 bytes as text, and the node did not read the rest.",
		});
	});
});
