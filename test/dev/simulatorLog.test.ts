import { describe, expect, it } from 'vitest';

import type { SimulatorAnswer } from '../../dev/simulator';
import type { LogClock } from '../../dev/simulatorLog';
import { SimulatorLog } from '../../dev/simulatorLog';

/** A clock the test moves: its timers fire only when it is advanced past them. */
class TestClock implements LogClock {
	private timers: Array<{ at: number; fn: () => void }> = [];

	constructor(private time: number) {}

	now(): number {
		return this.time;
	}

	after(ms: number, fn: () => void): () => void {
		const timer = { at: this.time + ms, fn };
		this.timers.push(timer);
		return () => {
			this.timers = this.timers.filter((t) => t !== timer);
		};
	}

	advance(ms: number): void {
		const until = this.time + ms;
		for (;;) {
			const next = this.timers.filter((t) => t.at <= until).sort((a, b) => a.at - b.at)[0];
			if (!next) break;
			this.timers = this.timers.filter((t) => t !== next);
			this.time = next.at;
			next.fn();
		}
		this.time = until;
	}

	get pendingTimers(): number {
		return this.timers.length;
	}
}

const run = (message: string, automationId = 'dev-automation'): SimulatorAnswer => ({
	kind: 'run',
	run: {
		runId: 'r1',
		automationId,
		receivedAt: '2026-11-27T17:55:03.000Z',
		message,
		signedAt: '2026-11-27T17:55:03.000Z',
	},
});
const refused = (status: number, reason: string, retryAfter?: string): SimulatorAnswer => ({
	kind: 'refused',
	status,
	reason,
	...(retryAfter === undefined ? {} : { retryAfter }),
});
const busy = refused(429, 'busy spell', '1');

function setUp() {
	const clock = new TestClock(new Date(2026, 10, 27, 18, 55, 3).getTime());
	const lines: string[] = [];
	const log = new SimulatorLog((line) => lines.push(line), clock);
	return { clock, lines, log };
}

describe("the terminal's lines for what the simulator answered", () => {
	it('an accepted run at once, with its automation and its message shortened to one line', () => {
		const { lines, log } = setUp();
		log.answered(
			run('Check order 1042 for Ada Lovelace\nand email a confirmation to ada@example.com today.'),
		);
		expect(lines).toEqual([
			'18:55:03 Simulator: run created for automation dev-automation: “Check order 1042 for Ada Lovelace and email a confirmation…”',
		]);
	});

	it('each kind of refusal with its status and the reason the simulator found', () => {
		const { clock, lines, log } = setUp();
		const answers = [
			refused(401, 'expired signature'),
			refused(403, 'wrong secret or altered body'),
			refused(400, 'malformed signature'),
			refused(404, 'unknown automation "nope"'),
			refused(413, 'body of 40000000 bytes'),
			refused(422, 'no data.message'),
			refused(429, 'simulated failure', '1'),
			refused(500, 'no secret to verify with'),
		];
		for (const answer of answers) {
			log.answered(answer);
			clock.advance(1000);
		}
		expect(lines.map((line) => line.slice(9))).toEqual([
			'Simulator: refused 1 request with 401 (expired signature)',
			'Simulator: refused 1 request with 403 (wrong secret or altered body)',
			'Simulator: refused 1 request with 400 (malformed signature)',
			'Simulator: refused 1 request with 404 (unknown automation "nope")',
			'Simulator: refused 1 request with 413 (body of 40000000 bytes)',
			'Simulator: refused 1 request with 422 (no data.message)',
			'Simulator: turned away 1 request with 429, Retry-After: 1 (simulated failure)',
			'Simulator: failed 1 request with 500 (no secret to verify with)',
		]);
	});

	it('the first answer at once, then at most one line a second, summing what came in between', () => {
		const { clock, lines, log } = setUp();
		log.answered(busy);
		expect(lines).toEqual([
			'18:55:03 Simulator: turned away 1 request with 429, Retry-After: 1 (busy spell)',
		]);
		for (let n = 0; n < 40; n++) {
			clock.advance(20);
			log.answered(n < 30 ? busy : refused(429, 'rate limit', '1'));
			if (n % 4 === 0) log.answered(run(`order ${n}`));
			if (n === 5 || n === 6) log.answered(refused(401, 'expired signature'));
			if (n === 7) log.answered(refused(401, 'no signature header'));
		}
		// 800 ms after the first line: still one line.
		expect(lines).toHaveLength(1);
		clock.advance(200);
		expect(lines).toEqual([
			'18:55:03 Simulator: turned away 1 request with 429, Retry-After: 1 (busy spell)',
			'18:55:04 Simulator: turned away 40 requests with 429, Retry-After: 1 (busy spell: 30, rate limit: 10); created 10 runs for automation dev-automation; refused 3 requests with 401 (expired signature: 2, no signature header: 1)',
		]);
		// Quiet: nothing more, and the next answer, seconds later, again at once.
		clock.advance(5_000);
		expect(lines).toHaveLength(2);
		log.answered(run('next'));
		expect(lines[2]).toBe('18:55:09 Simulator: run created for automation dev-automation: “next”');
	});

	it('runs of several automations name each; one run summed with others keeps its message', () => {
		const { clock, lines, log } = setUp();
		log.answered(busy);
		log.answered(run('first', 'a1'));
		log.answered(busy);
		clock.advance(1000);
		log.answered(run('second', 'a1'));
		log.answered(run('third', 'a2'));
		clock.advance(1000);
		expect(lines.map((line) => line.slice(9))).toEqual([
			'Simulator: turned away 1 request with 429, Retry-After: 1 (busy spell)',
			'Simulator: run created for automation a1: “first”; turned away 1 request with 429, Retry-After: 1 (busy spell)',
			'Simulator: created 2 runs for automations a1, a2',
		]);
	});

	it("a credential test's HEAD probe is told as a probe that found the URL, not as a refusal", () => {
		const { clock, lines, log } = setUp();
		log.answered({ kind: 'probe', status: 405 });
		log.answered({ kind: 'probe', status: 405 });
		log.answered({ kind: 'probe', status: 405 });
		clock.advance(1000);
		expect(lines.map((line) => line.slice(9))).toEqual([
			"Simulator: answered a credential test's probe (HEAD) with 405: the URL answers, no run",
			'Simulator: answered 2 credential test probes (HEAD) with 405: the URL answers, no run',
		]);
		expect(lines.join('\n')).not.toMatch(/refused|turned away/);
	});

	it('a busy spell beginning and over, each on a line of its own at once, after what came before; the last says how to meet the next spell', () => {
		const { clock, lines, log } = setUp();
		log.answered(run('before'));
		log.answered(busy);
		log.spell({ kind: 'began', forMs: 20_000 });
		clock.advance(20_000);
		log.spell({ kind: 'over', quietMs: 10_000 });
		expect(lines).toEqual([
			'18:55:03 Simulator: run created for automation dev-automation: “before”',
			'18:55:03 Simulator: turned away 1 request with 429, Retry-After: 1 (busy spell)',
			'18:55:03 Simulator: busy spell began: every request is turned away with 429 for 20 s',
			'18:55:23 Simulator: busy spell over: requests are accepted. The first after 10 s without any starts the next spell',
		]);
	});

	it('text from the request cannot move the cursor or break the line', () => {
		const { lines, log } = setUp();
		log.answered(run('red\u001b[31m text\r\nover two lines'));
		expect(lines[0]).toBe(
			'18:55:03 Simulator: run created for automation dev-automation: “red [31m text over two lines”',
		);
	});

	it('what is left untold is printed at a stop, and its timer cancelled', () => {
		const { clock, lines, log } = setUp();
		log.answered(refused(429, 'rate limit', '1'));
		log.answered(refused(429, 'rate limit', '1'));
		expect(clock.pendingTimers).toBe(1);
		log.flush();
		expect(clock.pendingTimers).toBe(0);
		expect(lines.map((line) => line.slice(9))).toEqual([
			'Simulator: turned away 1 request with 429, Retry-After: 1 (rate limit)',
			'Simulator: turned away 1 request with 429, Retry-After: 1 (rate limit)',
		]);
		log.flush();
		expect(lines).toHaveLength(2);
	});
});
