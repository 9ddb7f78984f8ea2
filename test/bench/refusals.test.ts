/**
 * The rule that splits a run's 429s (bench/refusals.ts), on scripted arrival and answer times: blind
 * when the request arrived by the time the run's first 429 was answered, informed otherwise.
 */
import { describe, expect, it } from 'vitest';

import { countRefusals, countTold, countToldAfter } from '../../bench/refusals';

describe('blind and informed 429s', () => {
	it('every 429 whose request arrived before the first 429 was answered is blind, however late its own answer', () => {
		const refusals = [
			{ arrivedMs: 0, answeredMs: 40 },
			{ arrivedMs: 10, answeredMs: 45 },
			{ arrivedMs: 39.9, answeredMs: 300 },
			{ arrivedMs: 40.1, answeredMs: 41 },
			{ arrivedMs: 500, answeredMs: 501 },
		];
		expect(countRefusals(refusals)).toEqual({ blind: 3, informed: 2 });
	});

	it('the first 429 is the first answered, not the first listed or the first arrived', () => {
		const refusals = [
			{ arrivedMs: 5, answeredMs: 90 },
			{ arrivedMs: 20, answeredMs: 30 },
			{ arrivedMs: 31, answeredMs: 32 },
		];
		expect(countRefusals(refusals)).toEqual({ blind: 2, informed: 1 });
	});

	it('arriving in the very ms the first 429 was answered counts as blind', () => {
		// nginx logs whole ms: its first refusal, answered at once, arrived in the ms it was answered.
		const refusals = [
			{ arrivedMs: 1000, answeredMs: 1000 },
			{ arrivedMs: 1000, answeredMs: 1001 },
			{ arrivedMs: 1001, answeredMs: 1001 },
		];
		expect(countRefusals(refusals)).toEqual({ blind: 2, informed: 1 });
	});

	it('a run without a 429 has neither', () => {
		expect(countRefusals([])).toEqual({ blind: 0, informed: 0 });
	});
});

describe('429s after the sender was told the quota', () => {
	it('a 429 counts when its request arrived after its own path’s first answer, whatever other paths were told', () => {
		const refusals = [
			{ arrivedMs: 5, answeredMs: 6, path: '/a' },
			{ arrivedMs: 60, answeredMs: 61, path: '/a' },
			{ arrivedMs: 60, answeredMs: 62, path: '/b' },
			{ arrivedMs: 120, answeredMs: 121, path: '/b' },
			{ arrivedMs: 130, answeredMs: 131, path: '/c' },
		];
		expect(countTold(refusals, { '/a': 50, '/b': 100 })).toBe(2);
	});
});

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
