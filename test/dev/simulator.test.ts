import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { BusySpell, SimulatorAnswer } from '../../dev/simulator';
import {
	AutomationServiceSimulator,
	BUSY_QUIET_MS,
	SIMULATED_FAILURES,
	failureLines,
} from '../../dev/simulator';
import { buildSignatureHeader } from '../../credentials/common/signature';

const ID = 'sim-automation';
const SECRET = 'sim_secret_value';
let clock = Date.now();
/** What the simulator told of its answers (the terminal's log prints them). */
const told: SimulatorAnswer[] = [];
const simulator = new AutomationServiceSimulator({
	automations: [{ id: ID, secret: SECRET }],
	maxBodyBytes: 1024,
	now: () => clock,
	onAnswered: (answer) => told.push(answer),
});

beforeAll(async () => {
	await simulator.start();
});
afterAll(async () => simulator.stop());

interface Answer {
	status: number;
	body: { error?: string; message?: string; runId?: string };
}

function send(
	path: string,
	body: string,
	headers: Record<string, string>,
	method = 'POST',
): Promise<Answer> {
	return new Promise((resolve, reject) => {
		const req = request(`${simulator.baseUrl}${path}`, { method, headers }, (res) => {
			const chunks: Buffer[] = [];
			res.on('data', (chunk: Buffer) => chunks.push(chunk));
			res.on('end', () =>
				resolve({
					status: res.statusCode ?? 0,
					body: JSON.parse(Buffer.concat(chunks).toString() || '{}'),
				}),
			);
		});
		req.on('error', reject);
		req.end(body);
	});
}

const BODY = '{"data":{"message":"hello","context":{"a":1}}}';
const signed = (body: string, t = clock, secret = SECRET) => ({
	'Content-Type': 'application/json',
	'X-Service-Signature': buildSignatureHeader(secret, body, t),
});

describe('the simulator accepts correctly signed triggers and records runs', () => {
	it('accepts, answers 202 with the run id, and lists the run in the history', async () => {
		clock = Date.now();
		told.length = 0;
		const answer = await send(`/webhooks/cloud/${ID}`, BODY, signed(BODY));
		expect(answer.status).toBe(202);
		const runs = simulator.runs(ID);
		expect(runs[runs.length - 1]).toMatchObject({
			runId: answer.body.runId,
			automationId: ID,
			message: 'hello',
			context: { a: 1 },
		});
		// Told with the run; the history's GET below is not an answer to tell.
		expect(told).toEqual([{ kind: 'run', run: runs[runs.length - 1] }]);
		const history = await new Promise<Answer>((resolve) => {
			request(`${simulator.baseUrl}/automations/${ID}/runs`, (res) => {
				const chunks: Buffer[] = [];
				res.on('data', (c: Buffer) => chunks.push(c));
				res.on('end', () =>
					resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString()) }),
				);
			}).end();
		});
		expect(history.status).toBe(200);
		expect((history.body as unknown as { runs: unknown[] }).runs).toHaveLength(runs.length);
		expect(told).toHaveLength(1);
	});
});

describe('the simulator rejects each bad request with its own status and message, and tells why', () => {
	const cases: Array<[string, () => Promise<Answer>, number, string, RegExp, string]> = [
		[
			'a missing signature',
			() => send(`/webhooks/cloud/${ID}`, BODY, { 'Content-Type': 'application/json' }),
			401,
			'missing_signature',
			/missing/,
			'no signature header',
		],
		[
			'a malformed signature',
			() =>
				send(`/webhooks/cloud/${ID}`, BODY, {
					'Content-Type': 'application/json',
					'X-Service-Signature': 't=abc,v1=00',
				}),
			400,
			'malformed_signature',
			/Malformed/,
			'malformed signature',
		],
		[
			'a wrong signature (other secret)',
			() => send(`/webhooks/cloud/${ID}`, BODY, signed(BODY, clock, 'wrong_secret')),
			403,
			'invalid_signature',
			/does not match/,
			'wrong secret or altered body',
		],
		[
			'an expired signature (5 minutes old)',
			() => send(`/webhooks/cloud/${ID}`, BODY, signed(BODY, clock - 300_000)),
			401,
			'expired_signature',
			/expired/,
			'expired signature',
		],
		[
			'an unknown automation',
			() => send('/webhooks/cloud/nope', BODY, signed(BODY)),
			404,
			'unknown_automation',
			/No automation with id "nope"/,
			'unknown automation "nope"',
		],
		[
			'a body that is not JSON',
			() => send(`/webhooks/cloud/${ID}`, '{"data":', signed('{"data":')),
			422,
			'invalid_body',
			/not JSON/,
			'body not JSON',
		],
		[
			'a body without data.message',
			() => send(`/webhooks/cloud/${ID}`, '{"data":{}}', signed('{"data":{}}')),
			422,
			'invalid_body',
			/data.message/,
			'no data.message',
		],
		[
			'a context that is an array',
			() =>
				send(
					`/webhooks/cloud/${ID}`,
					'{"data":{"message":"x","context":[1]}}',
					signed('{"data":{"message":"x","context":[1]}}'),
				),
			422,
			'invalid_body',
			/data.context must be an object/,
			'data.context not an object',
		],
		[
			'a content type other than JSON',
			() => send(`/webhooks/cloud/${ID}`, BODY, { ...signed(BODY), 'Content-Type': 'text/plain' }),
			415,
			'unsupported_media_type',
			/application\/json/,
			'Content-Type "text/plain"',
		],
		[
			'a body over the size limit',
			() => {
				const big = JSON.stringify({ data: { message: 'x'.repeat(2000) } });
				return send(`/webhooks/cloud/${ID}`, big, signed(big));
			},
			413,
			'body_too_large',
			/at most 1024/,
			'body of 2023 bytes',
		],
		[
			'another method than POST',
			() => send(`/webhooks/cloud/${ID}`, '', {}, 'PUT'),
			405,
			'method_not_allowed',
			/POST/,
			'PUT, not POST',
		],
	];
	for (const [name, act, status, error, message, reason] of cases) {
		it(`${name} → ${status} ${error}, told as "${reason}"`, async () => {
			clock = Date.now();
			told.length = 0;
			const before = simulator.runs(ID).length;
			const answer = await act();
			expect(answer.status).toBe(status);
			expect(answer.body.error).toBe(error);
			expect(answer.body.message).toMatch(message);
			expect(simulator.runs(ID)).toHaveLength(before);
			expect(told).toEqual([{ kind: 'refused', status, reason }]);
		});
	}

	it.each([
		['POST', '/hooks/x', 404, 'no endpoint at /hooks/x'],
		['GET', '/automations/nope/runs', 404, 'unknown automation "nope"'],
	])('%s %s → %i, told as %j', async (method, path, status, reason) => {
		told.length = 0;
		const answer = await new Promise<number>((resolve, reject) => {
			request(`${simulator.baseUrl}${path}`, { method }, (res) => {
				res.resume();
				res.on('end', () => resolve(res.statusCode ?? 0));
			})
				.on('error', reject)
				.end();
		});
		expect(answer).toBe(status);
		expect(told).toEqual([{ kind: 'refused', status, reason }]);
	});

	it("a credential test's HEAD probe → 405 with Allow: POST, told as a probe, not as a refusal; no run", async () => {
		told.length = 0;
		const before = simulator.runs(ID).length;
		const answer = await new Promise<{ status: number; allow?: string }>((resolve, reject) => {
			request(`${simulator.baseUrl}/webhooks/cloud/${ID}`, { method: 'HEAD' }, (res) => {
				res.resume();
				res.on('end', () =>
					resolve({ status: res.statusCode ?? 0, allow: res.headers.allow as string }),
				);
			})
				.on('error', reject)
				.end();
		});
		expect(answer).toEqual({ status: 405, allow: 'POST' });
		expect(told).toEqual([{ kind: 'probe', status: 405 }]);
		expect(simulator.runs(ID)).toHaveLength(before);
	});

	it('the same signed request with its header entries reordered is a replay too', async () => {
		clock = Date.now();
		const headers = signed(BODY);
		expect((await send(`/webhooks/cloud/${ID}`, BODY, headers)).status).toBe(202);
		const [t, v1] = headers['X-Service-Signature'].split(',');
		const reordered = { ...headers, 'X-Service-Signature': `${v1},${t}` };
		const replay = await send(`/webhooks/cloud/${ID}`, BODY, reordered);
		expect(replay.status).toBe(409);
		expect(replay.body.error).toBe('replayed_signature');
	});

	it('a replayed signed request → 409 replayed_signature, and no second run', async () => {
		clock = Date.now();
		const headers = signed(BODY);
		expect((await send(`/webhooks/cloud/${ID}`, BODY, headers)).status).toBe(202);
		const before = simulator.runs(ID).length;
		told.length = 0;
		const replay = await send(`/webhooks/cloud/${ID}`, BODY, headers);
		expect(replay.status).toBe(409);
		expect(replay.body.error).toBe('replayed_signature');
		expect(simulator.runs(ID)).toHaveLength(before);
		expect(told).toEqual([{ kind: 'refused', status: 409, reason: 'replayed signature' }]);
	});
});

describe('a failure asked for in data.context.simulateFailure (the examples show their branches)', () => {
	it.each([
		['rate_limited', 429, 'rate_limited'],
		['signature_rejected', 403, 'invalid_signature'],
		['body_rejected', 422, 'invalid_body'],
	])('%s → %i %s, no run, after the signature was verified', async (asked, status, error) => {
		clock = Date.now();
		const before = simulator.runs(ID).length;
		const body = JSON.stringify({ data: { message: 'm', context: { simulateFailure: asked } } });
		told.length = 0;
		const answer = await send(`/webhooks/cloud/${ID}`, body, signed(body));
		expect(answer).toEqual({
			status,
			body: { error, message: SIMULATED_FAILURES[asked].message },
		});
		expect(answer.body.message).toMatch(/^Simulated failure \(simulateFailure: /);
		expect(simulator.runs(ID)).toHaveLength(before);
		expect(told).toEqual([
			{
				kind: 'refused',
				status,
				reason: 'simulated failure',
				...(status === 429 ? { retryAfter: '1' } : {}),
			},
		]);
		// Signed with another secret: the real rejection comes first.
		const forged = await send(`/webhooks/cloud/${ID}`, body, signed(body, clock, 'other'));
		expect(forged).toMatchObject({ status: 403, body: { error: 'invalid_signature' } });
		expect(forged.body.message).not.toMatch(/Simulated/);
	});

	it('an unknown value → 422 naming the ones it knows, no run', async () => {
		clock = Date.now();
		const body = JSON.stringify({
			data: { message: 'm', context: { simulateFailure: 'constructor' } },
		});
		const answer = await send(`/webhooks/cloud/${ID}`, body, signed(body));
		expect(answer).toEqual({
			status: 422,
			body: {
				error: 'invalid_body',
				message:
					'data.context.simulateFailure must be one of rate_limited, signature_rejected, body_rejected, got "constructor".',
			},
		});
	});
});

describe('the simulator with a rate limit', () => {
	const toldLimited: SimulatorAnswer[] = [];
	const limited = new AutomationServiceSimulator({
		automations: [{ id: ID, secret: SECRET }],
		perSecond: 3,
		onAnswered: (answer) => toldLimited.push(answer),
	});
	beforeAll(async () => {
		await limited.start();
	});
	afterAll(async () => limited.stop());

	it('beyond its requests per second: 429 with Retry-After: 1, and no run', async () => {
		const answers = await Promise.all(
			Array.from({ length: 5 }, async (_, n) => {
				const body = `{"data":{"message":"m${n}"}}`;
				const headers = signed(body, Date.now());
				return await new Promise<{ status: number; retryAfter?: string }>((resolve, reject) => {
					const req = request(
						`${limited.baseUrl}/webhooks/cloud/${ID}`,
						{ method: 'POST', headers },
						(res) => {
							res.resume();
							res.on('end', () =>
								resolve({
									status: res.statusCode ?? 0,
									retryAfter: res.headers['retry-after'] as string | undefined,
								}),
							);
						},
					);
					req.on('error', reject);
					req.end(body);
				});
			}),
		);
		expect(answers.filter((a) => a.status === 202)).toHaveLength(3);
		expect(answers.filter((a) => a.status === 429)).toEqual([
			{ status: 429, retryAfter: '1' },
			{ status: 429, retryAfter: '1' },
		]);
		expect(limited.runs(ID)).toHaveLength(3);
		expect(limited.tooMany).toBe(2);
		const refused = toldLimited.filter((answer) => answer.kind === 'refused');
		expect(refused).toEqual(
			Array.from({ length: 2 }, () => ({
				kind: 'refused',
				status: 429,
				reason: 'rate limit',
				retryAfter: '1',
			})),
		);
		expect(toldLimited.filter((answer) => answer.kind === 'run')).toHaveLength(3);
	});
});

/** A signed trigger request with `message`, signed at `signedAt`: its status, Retry-After, error. */
function triggerAt(
	baseUrl: string,
	signedAt: number,
	message: string,
): Promise<{ status: number; retryAfter?: string; error?: string }> {
	const body = JSON.stringify({ data: { message } });
	return new Promise((resolve, reject) => {
		const req = request(
			`${baseUrl}/webhooks/cloud/${ID}`,
			{ method: 'POST', headers: signed(body, signedAt) },
			(res) => {
				const chunks: Buffer[] = [];
				res.on('data', (chunk: Buffer) => chunks.push(chunk));
				res.on('end', () =>
					resolve({
						status: res.statusCode ?? 0,
						retryAfter: res.headers['retry-after'] as string | undefined,
						error: (JSON.parse(Buffer.concat(chunks).toString()) as { error?: string }).error,
					}),
				);
			},
		);
		req.on('error', reject);
		req.end(body);
	});
}

describe('the simulator with a busy spell', () => {
	const BUSY_MS = 10_000;
	// Its own clock: the spell is measured on it, so no test waits for it to pass.
	let busyClock = Date.now();
	const answers: SimulatorAnswer[] = [];
	const busy = new AutomationServiceSimulator({
		automations: [{ id: ID, secret: SECRET }],
		busyForMs: BUSY_MS,
		perSecond: 1,
		now: () => busyClock,
		onAnswered: (answer) => answers.push(answer),
	});
	beforeAll(async () => {
		await busy.start();
	});
	afterAll(async () => busy.stop());

	const trigger = (message: string) => triggerAt(busy.baseUrl, busyClock, message);

	it('from the first trigger request on, for busyForMs, every one is 429 with Retry-After: 1 and no run; then the rate limit applies, its tokens unspent', async () => {
		const first = Date.now();
		busyClock = first;
		const during = [await trigger('m1'), await trigger('m2')];
		busyClock = first + BUSY_MS - 1;
		during.push(await trigger('m3'));
		expect(during).toEqual(
			Array.from({ length: 3 }, () => ({ status: 429, retryAfter: '1', error: 'busy' })),
		);
		expect(busy.runs(ID)).toHaveLength(0);
		expect(busy.tooMany).toBe(3);
		expect(answers).toEqual(
			Array.from({ length: 3 }, () => ({
				kind: 'refused',
				status: 429,
				reason: 'busy spell',
				retryAfter: '1',
			})),
		);

		busyClock = first + BUSY_MS;
		const after = await Promise.all([trigger('m4'), trigger('m5')]);
		expect(after.map((answer) => [answer.status, answer.error]).sort()).toEqual([
			[202, undefined],
			[429, 'rate_limited'],
		]);
		expect(busy.runs(ID)).toHaveLength(1);
	});

	it('the terminal says each simulator with a busy spell meets it again after the quiet while', () => {
		expect(failureLines({ busySeconds: 20 })).toEqual([
			[
				'Busy spell',
				`every request answered 429 (Retry-After: 1) for 20 s from the first one, and again from the first after ${BUSY_QUIET_MS / 1000} s without any`,
			],
		]);
	});
});

describe('the busy spell, again after a quiet while', () => {
	const BUSY_MS = 10_000;
	// Its own clock and timers: the spell is measured on them, so no test waits for it to pass.
	let busyClock = Date.now();
	const timers: Array<{ at: number; fn: () => void }> = [];
	/** Moves the clock to `to`, firing the timers due by then. */
	const advanceTo = (to: number) => {
		busyClock = to;
		for (const timer of timers.filter((t) => t.at <= to)) {
			timers.splice(timers.indexOf(timer), 1);
			timer.fn();
		}
	};
	const spells: BusySpell[] = [];
	const busy = new AutomationServiceSimulator({
		automations: [{ id: ID, secret: SECRET }],
		busyForMs: BUSY_MS,
		now: () => busyClock,
		after: (ms, fn) => {
			const timer = { at: busyClock + ms, fn };
			timers.push(timer);
			return () => timers.splice(timers.indexOf(timer), 1);
		},
		onBusySpell: (spell) => spells.push(spell),
	});
	beforeAll(async () => {
		await busy.start();
	});
	afterAll(async () => busy.stop());
	const trigger = (message: string) => triggerAt(busy.baseUrl, busyClock, message);

	it('a spell begins again with the first trigger request after BUSY_QUIET_MS without any, however long after the last spell; requests closer together than that are not held up', async () => {
		spells.length = 0;
		const first = busyClock + BUSY_QUIET_MS;
		advanceTo(first);
		expect(await trigger('n1')).toMatchObject({ status: 429, error: 'busy' });
		expect(spells).toEqual([{ kind: 'began', forMs: BUSY_MS }]);
		// A node re-sending every second through the spell is accepted once it is over.
		for (let at = first + 1000; at < first + BUSY_MS; at += 1000) {
			advanceTo(at);
			expect(await trigger(`n-${at}`)).toMatchObject({ status: 429 });
		}
		advanceTo(first + BUSY_MS);
		expect(spells).toEqual([
			{ kind: 'began', forMs: BUSY_MS },
			{ kind: 'over', quietMs: BUSY_QUIET_MS },
		]);
		expect(await trigger('n2')).toMatchObject({ status: 202 });
		// Quiet for just under the while: still accepted.
		advanceTo(first + BUSY_MS + BUSY_QUIET_MS - 1);
		expect(await trigger('n3')).toMatchObject({ status: 202 });
		// Then a person's pause: the next request meets a new spell, of the full length.
		advanceTo(first + BUSY_MS + 2 * BUSY_QUIET_MS + 30_000);
		expect(await trigger('n4')).toMatchObject({ status: 429, error: 'busy' });
		expect(spells.at(-1)).toEqual({ kind: 'began', forMs: BUSY_MS });
		advanceTo(busyClock + BUSY_MS - 1);
		expect(await trigger('n5')).toMatchObject({ status: 429, error: 'busy' });
		expect(spells).toHaveLength(3);
	});

	it('stopped during a spell, it tells of no end', async () => {
		const quiet = new AutomationServiceSimulator({
			automations: [{ id: ID, secret: SECRET }],
			busyForMs: BUSY_MS,
			now: () => busyClock,
			after: (ms, fn) => {
				const timer = { at: busyClock + ms, fn };
				timers.push(timer);
				return () => timers.splice(timers.indexOf(timer), 1);
			},
		});
		await quiet.start();
		const pending = timers.length;
		expect(await triggerAt(quiet.baseUrl, busyClock, 'x')).toMatchObject({ status: 429 });
		expect(timers).toHaveLength(pending + 1);
		await quiet.stop();
		expect(timers).toHaveLength(pending);
	});
});

describe('the simulator with a quota told in headers', () => {
	// Its own clock: the window is measured on it, so no test waits for it to pass.
	let quotaClock = Date.parse('2026-11-21T10:00:00Z');
	const answers: SimulatorAnswer[] = [];
	const quoted = new AutomationServiceSimulator({
		automations: [{ id: ID, secret: SECRET }],
		quota: { limit: 2, windowSeconds: 30, form: 'x-ratelimit' },
		now: () => quotaClock,
		onAnswered: (answer) => answers.push(answer),
	});
	beforeAll(async () => {
		await quoted.start();
	});
	afterAll(async () => quoted.stop());

	async function trigger(message: string) {
		const body = JSON.stringify({ data: { message } });
		return await new Promise<{ status: number; headers: Record<string, unknown> }>(
			(resolve, reject) => {
				const req = request(
					`${quoted.baseUrl}/webhooks/cloud/${ID}`,
					{ method: 'POST', headers: signed(body, quotaClock) },
					(res) => {
						res.resume();
						res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
					},
				);
				req.on('error', reject);
				req.end(body);
			},
		);
	}

	it('tells the quota on every answer, in the form asked for, and beyond it answers 429 with Retry-After until the window ends, without a run', async () => {
		const start = quotaClock;
		const taken = [await trigger('q1'), await trigger('q2')];
		expect(taken.map((answer) => answer.status)).toEqual([202, 202]);
		expect(taken[1].headers).toMatchObject({
			'x-ratelimit-limit': '2',
			'x-ratelimit-remaining': '0',
			'x-ratelimit-reset': String((start + 30_000) / 1000),
		});
		quotaClock = start + 12_000;
		const refused = await trigger('q3');
		expect(refused.status).toBe(429);
		expect(refused.headers).toMatchObject({ 'x-ratelimit-remaining': '0', 'retry-after': '18' });
		expect(answers.at(-1)).toEqual({
			kind: 'refused',
			status: 429,
			reason: 'quota spent',
			retryAfter: '18',
		});
		quotaClock = start + 30_000;
		expect((await trigger('q4')).status).toBe(202);
		expect(quoted.runs(ID).map((run) => run.message)).toEqual(['q1', 'q2', 'q4']);
		expect(quoted.tooMany).toBe(1);
	});
});
