import { describe, expect, it } from 'vitest';

import { parseRetryAfter } from '../nodes/TriggerAutomation/serviceAnswer';

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
