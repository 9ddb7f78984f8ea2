import { describe, expect, it } from 'vitest';

import { headerValue } from '../../../../nodes/TriggerAutomation/answer/response';

describe('response headers: found whatever the case of their names', () => {
	it('reads the lower-case name Node.js gives, and any other spelling', () => {
		expect(headerValue({ 'retry-after': '7' }, 'Retry-After')).toBe('7');
		expect(headerValue({ 'Retry-After': '7' }, 'retry-after')).toBe('7');
		expect(headerValue({ LOCATION: ['/a', '/b'] }, 'location')).toBe('/a');
		expect(headerValue({ date: 'x' }, 'location')).toBeUndefined();
	});
});
