/**
 * Runs one matrix case in one On Error mode through n8n's engine against the faulty receiver, and
 * checks everything the matrix promises: the affected item's output or error, pairing, that the
 * other items are unaffected, how many requests reached the service (no duplicates), that every
 * request meets the spec, and that no secret or signature shows up anywhere, logs included.
 */
// First: it sets the log level n8n reads when its logger is first made.
import { startCapture, stopCapture } from './capture';

import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IDataObject, INodeExecutionData, INodeParameters, IRun } from 'n8n-workflow';
import { expect } from 'vitest';

import { NOTHING_SENT } from '../../nodes/TriggerAutomation/answer/failure';
import { errorOf, outputOf, startWorkflow } from '../../dev/engine';
import type { AnswerSpec, MatrixCase } from './faultMatrix';
import { AUTOMATION_ID, HOST, PATH, SECRET, baseItem } from './faultMatrix';
import type { ReceivedRequest, Tls } from './receiver';
import {
	Receiver,
	acceptWithJson,
	answer,
	resetConnection,
	specViolations,
	trickle,
	writeLargeAnswer,
} from './receiver';
import { expectNoLeak } from './leaks';
import type { DnsAnswer } from './localDns';
import { installLocalDns, setHost } from './localDns';
import { oddWorkflow } from './oddItems';
import { NODE_NAME, triggerWorkflow } from './workflows';

// n8n-core's own copies of n8n's DI container and settings: the ones its request helper reads.
const fromCore = createRequire(require.resolve('n8n-core'));
const { Container } = fromCore('@n8n/di') as typeof import('@n8n/di');
const { SsrfProtectionConfig } = fromCore('@n8n/config') as typeof import('@n8n/config');

export type Mode = 'stop' | 'continueRegularOutput' | 'continueErrorOutput';
export const MODES: Array<{ mode: Mode; label: string }> = [
	{ mode: 'stop', label: 'Continue On Fail off' },
	{ mode: 'continueRegularOutput', label: 'On Error: Continue' },
	{ mode: 'continueErrorOutput', label: 'On Error: Continue (using error output)' },
];

export interface Harness {
	http: Receiver;
	tls?: Receiver;
	closedPort: number;
}

export function opensslAvailable(): boolean {
	try {
		execFileSync('openssl', ['version'], { stdio: 'ignore' });
		return true;
	} catch {
		return false;
	}
}

/**
 * A self-signed certificate for svc.invalid and 127.0.0.1, made now with openssl (nothing secret
 * is kept in the repository); undefined when openssl is not installed.
 */
export function selfSignedCertificate(): Tls | undefined {
	const dir = mkdtempSync(join(tmpdir(), 'matrix-tls-'));
	try {
		const key = join(dir, 'key.pem');
		const cert = join(dir, 'cert.pem');
		execFileSync(
			'openssl',
			[
				'req',
				'-x509',
				'-newkey',
				'ec',
				'-pkeyopt',
				'ec_paramgen_curve:prime256v1',
				'-nodes',
				'-keyout',
				key,
				'-out',
				cert,
				'-days',
				'1',
				'-subj',
				`/CN=${HOST}`,
				'-addext',
				`subjectAltName=DNS:${HOST},IP:127.0.0.1`,
			],
			{ stdio: 'ignore' },
		);
		return { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') };
	} catch {
		return undefined;
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

/** A port on 127.0.0.1 that nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
	const { port } = server.address() as { port: number };
	await new Promise<void>((done) => server.close(() => done()));
	return port;
}

export async function startHarness(withTls = false): Promise<Harness> {
	const tlsMaterial = withTls ? selfSignedCertificate() : undefined;
	return {
		http: await new Receiver().start(),
		tls: tlsMaterial ? await new Receiver({ tls: tlsMaterial }).start() : undefined,
		closedPort: await closedPort(),
	};
}

export async function stopHarness(h: Harness | undefined): Promise<void> {
	await h?.http.stop();
	await h?.tls?.stop();
}

// svc.invalid → 127.0.0.1, unless a fault queued other answers for the next lookups.
const dnsQueue: DnsAnswer[] = [];
installLocalDns();
setHost(HOST, () => dnsQueue.shift() ?? { address: '127.0.0.1' });

/** Which of the three items a request belongs to: by its message, or its context's `m`. */
export function itemOf(request: ReceivedRequest): number {
	try {
		const { data } = JSON.parse(request.body.toString('utf8')) as {
			data: { message?: unknown; context?: { m?: unknown } };
		};
		for (const value of [data.message, data.context?.m]) {
			if (value === 'item 0') return 0;
			if (value === 'item 2') return 2;
		}
	} catch {
		// not JSON: cannot be one of ours, count it against the affected item
	}
	return 1;
}

function signatureOf(request: ReceivedRequest): string {
	return String(request.headers['x-service-signature']);
}

function timestampOf(request: ReceivedRequest): number {
	return Number(/t=(\d+)/.exec(signatureOf(request))?.[1]);
}

/**
 * The no-duplicate rule: an item reaches the service more than once only when every earlier copy
 * was provably not accepted (answered 429, or 503 with Retry-After), and each copy has its own
 * timestamp and signature.
 */
export function expectNoDuplicates(requests: ReceivedRequest[]): void {
	for (const item of [0, 1, 2]) {
		const copies = requests.filter((r) => itemOf(r) === item);
		copies.slice(0, -1).forEach((earlier) => {
			const notHandled = earlier.answer === 503 && earlier.retryAfter !== undefined;
			expect(
				notHandled ? 429 : earlier.answer,
				`item ${item} was re-sent after the service answered ${earlier.answer}`,
			).toBe(429);
		});
		expect(new Set(copies.map(signatureOf)).size).toBe(copies.length);
		const stamps = copies.map(timestampOf);
		expect([...stamps].sort((a, b) => a - b)).toEqual(stamps);
		expect(new Set(stamps).size).toBe(stamps.length);
	}
}

/** A `{host}` / `{any}` template → a regular expression for the whole text. */
export function templateRegExp(template: string, host: string): RegExp {
	const escaped = template
		.split(/(\{host\}|\{any\})/)
		.map((part) =>
			part === '{host}' ? escapeRe(host) : part === '{any}' ? '[\\s\\S]*' : escapeRe(part),
		)
		.join('');
	return new RegExp(`^${escaped}$`);
}

function escapeRe(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function sendAnswer(spec: AnswerSpec, base: string, res: Parameters<typeof answer>[0]) {
	if (spec.noDate) res.sendDate = false;
	answer(res, spec.status, spec.body ?? '', spec.headers?.(base) ?? {});
}

/** Sets the receiver (and DNS) up for the case's fault. */
function arm(c: MatrixCase, receiver: Receiver): void {
	const fault = c.fault;
	const attempts = new Map<number, number>();
	receiver.respondWith((request, res, req) => {
		const item = itemOf(request);
		const attempt = attempts.get(item) ?? 0;
		attempts.set(item, attempt + 1);
		// Connection-level faults hit item 1's connection: the next one after item 0's request.
		if (item === 0 && fault) {
			if (fault.kind === 'resetBeforeBody') receiver.faultNextConnection(resetConnection);
			if (fault.kind === 'refuse')
				for (let i = 0; i < fault.times; i++) dnsQueue.push({ address: '127.0.0.2' });
			if (fault.kind === 'dns')
				for (let i = 0; i < fault.times; i++) dnsQueue.push({ error: fault.code });
		}
		if (item !== 1 || !fault) return acceptWithJson(request, res, req);
		switch (fault.kind) {
			case 'answers':
				return sendAnswer(
					fault.list[Math.min(attempt, fault.list.length - 1)],
					receiver.url.replace('127.0.0.1', HOST),
					res,
				);
			case 'resetAfterBody':
				return void res.socket?.resetAndDestroy();
			case 'resetMidAnswer':
				res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '100' });
				return void res.write('{"runId":', () => res.socket?.resetAndDestroy());
			case 'slowHeaders':
				return receiver.later(fault.ms, () => acceptWithJson(request, res, req));
			case 'trickle':
				return trickle({ everyMs: fault.everyMs, forMs: fault.totalMs })(request, res, req);
			case 'largeAnswer':
				return writeLargeAnswer(request, res, fault.status, fault.bytes);
			default:
				return acceptWithJson(request, res, req);
		}
	});
}

export interface CaseRun {
	run?: IRun;
	thrown?: unknown;
	logged: string[];
	requests: ReceivedRequest[];
	authenticateCalls: number;
	host: string;
	secret: string;
}

export function workflowFor(c: MatrixCase, h: Harness, settings: IDataObject) {
	const receiver = c.tls ? h.tls! : h.http;
	const base = receiver.url.replace('127.0.0.1', HOST);
	const rawUrl = (c.url ?? ((b: string) => `${b}${PATH}`))(base).replace(
		'{closedPort}',
		String(h.closedPort),
	);
	const parameters: INodeParameters = { message: '={{ $json.m }}', ...c.parameters };
	// One at a Time, so that a fault armed for the second request reaches the middle item; no
	// re-sends unless the case asks for them.
	const options = (c.parameters?.options ?? {}) as IDataObject;
	parameters.options = {
		...(options.batching === undefined ? { sending: 'oneAtATime' } : {}),
		retries: 0,
		...options,
	};
	for (const key of Object.keys(parameters))
		if (parameters[key] === undefined) delete parameters[key];
	const item1 = { ...baseItem(1), ...c.item1, ...(c.odd ? { odd: c.odd } : {}) };
	const items = [baseItem(0), JSON.parse(JSON.stringify(item1)) as IDataObject, baseItem(2)];
	const spec = { items, parameters, settings, webhookUrl: rawUrl, secret: c.secret ?? SECRET };
	let host = '';
	try {
		host = new URL(rawUrl.trim()).host;
	} catch {
		host = rawUrl;
	}
	return { options: c.odd ? oddWorkflow(spec) : triggerWorkflow(spec), receiver, host };
}

/** Runs the case once; everything logged meanwhile is captured. */
export async function runCase(
	c: MatrixCase,
	mode: Mode,
	h: Harness,
	extra: IDataObject = {},
): Promise<CaseRun> {
	const settings: IDataObject = mode === 'stop' ? { ...extra } : { onError: mode, ...extra };
	const { options, receiver, host } = workflowFor(c, h, settings);
	h.http.reset();
	h.tls?.reset();
	dnsQueue.length = 0;
	arm(c, receiver);
	let run: IRun | undefined;
	let thrown: unknown;
	let authenticateCalls = 0;
	const ssrf = Container.get(SsrfProtectionConfig);
	ssrf.enabled = c.ssrfProtection === true;
	startCapture();
	try {
		const started = await startWorkflow(options);
		run = await started.promise;
		authenticateCalls = started.credentialsHelper.authenticateCalls;
	} catch (error) {
		thrown = error;
	} finally {
		ssrf.enabled = false;
	}
	const logged = stopCapture();
	return {
		run,
		thrown,
		logged,
		requests: [...receiver.requests],
		authenticateCalls,
		host,
		secret: c.secret ?? SECRET,
	};
}

/** The checks every run of every case gets: spec conformance, no leak, no duplicates. */
export function expectCleanRun(c: MatrixCase, result: CaseRun): void {
	for (const request of result.requests) {
		expect(
			specViolations(request, result.secret, c.path ?? PATH),
			`request of item ${itemOf(request)}`,
		).toEqual([]);
	}
	for (const secret of new Set([result.secret, result.secret.trim()])) {
		if (secret.trim() === '') continue;
		expectNoLeak(
			secret,
			{ run: result.run, logged: result.logged, extra: [result.thrown] },
			result.requests,
		);
	}
	expectNoDuplicates(result.requests);
}

function expectAccepted(item: INodeExecutionData, index: number, requests: ReceivedRequest[]) {
	const mine = requests.filter((r) => itemOf(r) === index);
	const last = mine[mine.length - 1];
	expect(item.pairedItem).toEqual({ item: index });
	expect(item.json).toMatchObject({
		automationId: AUTOMATION_ID,
		signedAt: new Date(timestampOf(last)).toISOString(),
		statusCode: 202,
	});
	expect((item.json.response as IDataObject).runId).toBe(`run-${last.receivedAt}`);
}

function expectFailedItem(
	item: INodeExecutionData,
	index: number,
	c: MatrixCase,
	host: string,
	mode: Mode,
) {
	if (c.expect.kind !== 'error') throw new Error('not an error case');
	expect(item.pairedItem).toEqual({ item: index });
	// On the error output n8n adds the input item's fields next to error and details.
	if (mode === 'continueRegularOutput')
		expect(Object.keys(item.json).sort()).toEqual(['details', 'error']);
	expect(item.json.error).toMatch(templateRegExp(c.expect.message, host));
	const details = item.json.details as IDataObject;
	expect(details.itemIndex).toBe(index);
	expect(details.code).toBe(c.expect.code);
	expectDescription(details.description as string | undefined, c.expect.description, host);
	expect(details.httpCode).toBe(c.expect.httpCode);
}

function expectDescription(actual: string | undefined, expected: string, host: string) {
	if (expected === '') expect(actual).toBeUndefined();
	else expect(actual).toMatch(templateRegExp(`{any}${expected}{any}`, host));
}

/** Checks one run of a (non-custom) case against the matrix. */
export function expectCaseOutcome(c: MatrixCase, mode: Mode, result: CaseRun): void {
	const { run, requests, host } = result;
	const all = c.scope === 'all';
	const affected = all ? [0, 1, 2] : [1];
	const count = (item: number) => requests.filter((r) => itemOf(r) === item).length;
	const outcome = c.expect;

	if (outcome.kind === 'notStarted') {
		expect(run).toBeUndefined();
		expect((result.thrown as Error).message).toMatch(templateRegExp(outcome.message, host));
		expect(requests).toHaveLength(0);
		return;
	}
	expect(result.thrown).toBeUndefined();
	expect(run).toBeDefined();
	// The node stopped reading a large answer: far from all of it was written.
	if (c.fault?.kind === 'largeAnswer') {
		for (const request of requests.filter((r) => itemOf(r) === 1)) {
			expect(request.bytesSent).toBeLessThan(c.fault.bytes / 4);
		}
	}

	if (outcome.kind === 'sent') {
		expect(run!.status).toBe('success');
		const output = outputOf(run!, NODE_NAME);
		expect(output.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expectAccepted(output[0], 0, requests);
		expectAccepted(output[2], 2, requests);
		expect(count(0)).toBe(1);
		expect(count(2)).toBe(1);
		expect(count(1)).toBe(c.requests);
		const mine = requests.filter((r) => itemOf(r) === 1);
		const last = mine[mine.length - 1];
		const json = output[1].json;
		expect(json.automationId).toBe(AUTOMATION_ID);
		expect(json.statusCode).toBe(outcome.statusCode ?? 202);
		expect(json.signedAt).toBe(new Date(timestampOf(last)).toISOString());
		expect(json.response).toEqual(outcome.response ?? { runId: `run-${last.receivedAt}` });
		if (outcome.json) expect(json).toMatchObject(outcome.json);
		outcome.check?.(JSON.parse(last.body.toString('utf8')).data, last);
		if (mode === 'continueErrorOutput') expect(outputOf(run!, NODE_NAME, 1)).toEqual([]);
		return;
	}

	// The affected item(s) fail.
	if (mode === 'stop') {
		const first = affected[0];
		expect(run!.status).toBe('error');
		const error = errorOf(run!, NODE_NAME)! as unknown as {
			message: string;
			description?: string;
			httpCode?: string;
			context: { itemIndex: number; code?: string };
		};
		expect(error.message).toMatch(templateRegExp(outcome.message, host));
		// The error that stops the node ends with its code (the editor shows no context).
		const ending = ` Failure code: \`${outcome.code}\`.`;
		expect(` ${error.description ?? ''}`.endsWith(ending), error.description ?? '').toBe(true);
		const described = ` ${error.description}`.slice(0, -ending.length).trim();
		// Bad input the message alone names: the error that stops the node still says what to do.
		if (outcome.code === 'bad_input' && outcome.description === '') {
			expect(described).toBe(NOTHING_SENT);
		} else {
			expectDescription(described || undefined, outcome.description, host);
		}
		expect(error.context.itemIndex).toBe(first);
		expect(error.context.code).toBe(outcome.code);
		if (outcome.httpCode) expect(error.httpCode).toBe(outcome.httpCode);
		expect(outputOf(run!, NODE_NAME)).toEqual([]);
		// Items before the failing one were sent, the ones after it were not.
		for (let item = 0; item < first; item++) expect(count(item)).toBe(1);
		expect(count(first)).toBe(c.requests);
		for (let item = first + 1; item < 3; item++) expect(count(item)).toBe(0);
		return;
	}
	expect(run!.status).toBe('success');
	for (const item of [0, 1, 2]) expect(count(item)).toBe(affected.includes(item) ? c.requests : 1);
	if (mode === 'continueRegularOutput') {
		const output = outputOf(run!, NODE_NAME);
		expect(output).toHaveLength(3);
		output.forEach((item, index) =>
			affected.includes(index)
				? expectFailedItem(item, index, c, host, mode)
				: expectAccepted(item, index, requests),
		);
	} else {
		const ok = outputOf(run!, NODE_NAME, 0);
		const failed = outputOf(run!, NODE_NAME, 1);
		expect(ok.map((i) => i.pairedItem)).toEqual(
			[0, 1, 2].filter((i) => !affected.includes(i)).map((item) => ({ item })),
		);
		ok.forEach((item) =>
			expectAccepted(item, (item.pairedItem as { item: number }).item, requests),
		);
		expect(failed.map((i) => i.pairedItem)).toEqual(affected.map((item) => ({ item })));
		failed.forEach((item, n) => expectFailedItem(item, affected[n], c, host, mode));
	}
}
