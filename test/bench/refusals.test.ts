/**
 * The 429s a sender had time to avoid (bench/refusals.ts), on scripted arrival and answer times.
 */
import { describe, expect, it } from 'vitest';

import { countToldAfter } from '../../bench/refusals';

describe('429s a sender had long enough to read the quota', () => {
	it('counts a 429 whose request came that long or longer after its own path was first answered', () => {
		const refusals = [
			{ arrivedMs: 249, answeredMs: 250, path: '/a' },
			{ arrivedMs: 250, answeredMs: 251, path: '/a' },
			{ arrivedMs: 400, answeredMs: 401, path: '/b' },
			{ arrivedMs: 9000, answeredMs: 9001, path: '/c' },
		];
		// /a first answered at 50 ms, /b at 300 ms, /c never.
		expect(countToldAfter(refusals, { '/a': 50, '/b': 300 }, 200)).toBe(1);
		expect(countToldAfter(refusals, { '/a': 50, '/b': 300 }, 0)).toBe(3);
	});
});
