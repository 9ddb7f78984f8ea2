/**
 * Starting processes at one moment (bench/together.ts): none is told to go before every one is
 * ready and the service's run has been started afresh; if one cannot get ready, none goes.
 */
import { describe, expect, it } from 'vitest';

import { startTogether } from '../../bench/together';

/** A party whose readiness the test settles; it records into `events` when it is told to go. */
function party(name: string, events: string[]) {
	let ready!: () => void;
	let fail!: (error: Error) => void;
	const readiness = new Promise<void>((resolve, reject) => {
		ready = resolve;
		fail = reject;
	});
	return {
		ready,
		fail,
		party: {
			ready: readiness,
			go: async () => {
				events.push(`go ${name}`);
				return name;
			},
		},
	};
}

const ticks = async (n = 5) => {
	for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe('starting processes together', () => {
	it('no party goes until all are ready; then the service is reset first and every party goes in the same tick', async () => {
		const events: string[] = [];
		const parties = ['a', 'b', 'c'].map((name) => party(name, events));
		const started = startTogether(
			parties.map((p) => p.party),
			async () => {
				await ticks(1);
				events.push('service reset');
			},
		);
		parties[2].ready();
		parties[0].ready();
		await ticks();
		expect(events).toEqual([]);
		parties[1].ready();
		let sameTick: string[] = [];
		const watch = (async () => {
			while (!events.includes('go a')) await new Promise((resolve) => setImmediate(resolve));
			sameTick = [...events];
		})();
		expect(await started).toEqual(['a', 'b', 'c']);
		await watch;
		expect(sameTick).toEqual(['service reset', 'go a', 'go b', 'go c']);
	});

	it('if one party cannot get ready, none goes and the service is not reset', async () => {
		const events: string[] = [];
		const parties = ['a', 'b'].map((name) => party(name, events));
		const started = startTogether(
			parties.map((p) => p.party),
			() => events.push('service reset'),
		);
		parties[0].ready();
		parties[1].fail(new Error('the engine did not load'));
		await expect(started).rejects.toThrow('the engine did not load');
		await ticks();
		expect(events).toEqual([]);
	});
});
